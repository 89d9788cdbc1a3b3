-- Delivery attempts per queue row, counted by every fetch, for poison-message detection.
ALTER TABLE orchestrator_queue
    ADD COLUMN attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0);
ALTER TABLE worker_queue
    ADD COLUMN attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0);
