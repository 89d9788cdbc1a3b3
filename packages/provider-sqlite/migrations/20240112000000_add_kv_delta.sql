-- Two-table key-value model: a turn writes the running execution's changes to kv_delta (a NULL
-- value is a cleared key); when the execution ends they are merged into kv_store. kv_store loses
-- its execution_id column, which SQLite can only drop by rebuilding the table.
CREATE TABLE IF NOT EXISTS kv_delta (
    instance_id        TEXT NOT NULL,
    key                TEXT NOT NULL,
    value              TEXT,
    last_updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (instance_id, key)
);

CREATE TABLE kv_store_rebuilt (
    instance_id        TEXT NOT NULL,
    key                TEXT NOT NULL,
    value              TEXT NOT NULL,
    last_updated_at_ms INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (instance_id, key)
);
INSERT INTO kv_store_rebuilt (instance_id, key, value, last_updated_at_ms)
SELECT instance_id, key, value, last_updated_at_ms FROM kv_store;
DROP INDEX IF EXISTS idx_kv_store_execution;
DROP TABLE kv_store;
ALTER TABLE kv_store_rebuilt RENAME TO kv_store;
