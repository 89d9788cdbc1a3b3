-- The identity of a queued activity as columns, so a turn can cancel it without parsing work items.
ALTER TABLE worker_queue ADD COLUMN instance_id TEXT;
ALTER TABLE worker_queue ADD COLUMN execution_id INTEGER;
ALTER TABLE worker_queue ADD COLUMN activity_id INTEGER;
CREATE INDEX IF NOT EXISTS idx_worker_activity ON worker_queue (instance_id, execution_id, activity_id);
