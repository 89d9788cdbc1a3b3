-- 0023 partial secondary indexes: the session, tag and lock-token indexes cover only rows where
-- the column is set, which most rows are not, so the indexes stay small under churn.
-- (The indexes are rebuilt without CONCURRENTLY, as duroxide-pg does: the migration runs in a
-- transaction, and the queues are shallow.)

DROP INDEX IF EXISTS {{schema}}.idx_worker_queue_session_id;
CREATE INDEX idx_worker_queue_session_id ON {{schema}}.worker_queue (session_id) WHERE session_id IS NOT NULL;
DROP INDEX IF EXISTS {{schema}}.idx_worker_queue_tag;
CREATE INDEX idx_worker_queue_tag ON {{schema}}.worker_queue (tag) WHERE tag IS NOT NULL;
DROP INDEX IF EXISTS {{schema}}.idx_orch_lock;
CREATE INDEX idx_orch_lock ON {{schema}}.orchestrator_queue (lock_token) WHERE lock_token IS NOT NULL;
