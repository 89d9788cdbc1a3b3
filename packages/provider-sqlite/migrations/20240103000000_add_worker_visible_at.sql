-- Activities get a visibility time (epoch milliseconds) apart from their lock, as orchestrator
-- messages have; rows that existed before read as visible (0).
ALTER TABLE worker_queue ADD COLUMN visible_at INTEGER NOT NULL DEFAULT 0;
