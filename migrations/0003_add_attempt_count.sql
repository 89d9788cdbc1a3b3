-- 0003 attempt counters: each queue row counts how often it was claimed, so the runtime can
-- detect a poison message (one that keeps failing) and stop retrying it. 0 until the first claim.

ALTER TABLE {{schema}}.orchestrator_queue ADD COLUMN IF NOT EXISTS attempt_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE {{schema}}.worker_queue ADD COLUMN IF NOT EXISTS attempt_count INTEGER NOT NULL DEFAULT 0;
