-- The routing tag of an activity (NULL = the default queue).
ALTER TABLE worker_queue ADD COLUMN tag TEXT;
CREATE INDEX idx_worker_queue_tag ON worker_queue (tag);
