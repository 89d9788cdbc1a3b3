-- When the runtime last set a key (epoch milliseconds); 0 for rows written before this version.
ALTER TABLE kv_store ADD COLUMN last_updated_at_ms INTEGER NOT NULL DEFAULT 0;
