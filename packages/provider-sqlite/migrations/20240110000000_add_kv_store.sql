-- Key-value state of an instance, one row per key.
CREATE TABLE IF NOT EXISTS kv_store (
    instance_id  TEXT NOT NULL,
    key          TEXT NOT NULL,
    value        TEXT NOT NULL,
    execution_id INTEGER NOT NULL,
    PRIMARY KEY (instance_id, key)
);
CREATE INDEX IF NOT EXISTS idx_kv_store_execution ON kv_store (instance_id, execution_id);
