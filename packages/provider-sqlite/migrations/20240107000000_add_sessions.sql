-- Session affinity: activities of one session go to the worker that owns it until its lease
-- (locked_until, epoch milliseconds) lapses.
ALTER TABLE worker_queue ADD COLUMN session_id TEXT;
CREATE INDEX idx_worker_queue_session ON worker_queue (session_id);

CREATE TABLE sessions (
    session_id       TEXT PRIMARY KEY,
    worker_id        TEXT NOT NULL,
    locked_until     INTEGER NOT NULL,
    last_activity_at INTEGER NOT NULL
);
