-- 0001 initial schema: the six tables every duroxide-pg schema starts with, their lookup indexes
-- and the migration ledger. Timestamps still default to the database clock here; 0012 removes the
-- defaults once every writer passes the caller's clock.
--
-- The runner replaces {{schema}} with the schema as a quoted identifier and {{schema_name}} with
-- its bare (lower-case) name; see README.md.

CREATE TABLE IF NOT EXISTS {{schema}}.instances (
    instance_id           TEXT PRIMARY KEY,
    orchestration_name    TEXT NOT NULL,
    orchestration_version TEXT,
    current_execution_id  BIGINT NOT NULL DEFAULT 1,
    created_at            TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP,
    updated_at            TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE IF NOT EXISTS {{schema}}.executions (
    instance_id  TEXT NOT NULL,
    execution_id BIGINT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'Running',
    output       TEXT,
    started_at   TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP,
    completed_at TIMESTAMPTZ,
    PRIMARY KEY (instance_id, execution_id)
);

CREATE TABLE IF NOT EXISTS {{schema}}.history (
    instance_id  TEXT NOT NULL,
    execution_id BIGINT NOT NULL,
    event_id     BIGINT NOT NULL,
    event_type   TEXT NOT NULL,
    event_data   TEXT NOT NULL,
    created_at   TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (instance_id, execution_id, event_id)
);

CREATE TABLE IF NOT EXISTS {{schema}}.orchestrator_queue (
    id           BIGSERIAL PRIMARY KEY,
    instance_id  TEXT NOT NULL,
    work_item    TEXT NOT NULL,
    visible_at   TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP,
    lock_token   TEXT,
    locked_until BIGINT,
    created_at   TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE IF NOT EXISTS {{schema}}.worker_queue (
    id           BIGSERIAL PRIMARY KEY,
    work_item    TEXT NOT NULL,
    visible_at   TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP,
    lock_token   TEXT,
    locked_until BIGINT,
    created_at   TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP
);

-- One row per claimed instance; locked_until and locked_at are epoch milliseconds of the caller.
CREATE TABLE IF NOT EXISTS {{schema}}.instance_locks (
    instance_id  TEXT PRIMARY KEY,
    lock_token   TEXT NOT NULL,
    locked_until BIGINT NOT NULL,
    locked_at    BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS idx_orch_visible ON {{schema}}.orchestrator_queue (visible_at, lock_token);
CREATE INDEX IF NOT EXISTS idx_orch_instance ON {{schema}}.orchestrator_queue (instance_id);
CREATE INDEX IF NOT EXISTS idx_orch_lock ON {{schema}}.orchestrator_queue (lock_token);
CREATE INDEX IF NOT EXISTS idx_worker_visible ON {{schema}}.worker_queue (visible_at, lock_token);
CREATE INDEX IF NOT EXISTS idx_worker_available ON {{schema}}.worker_queue (lock_token, id);
CREATE INDEX IF NOT EXISTS idx_instance_locks_locked_until ON {{schema}}.instance_locks (locked_until);
-- Same columns as history's primary key; duroxide-pg has it, so the schema keeps it.
CREATE INDEX IF NOT EXISTS idx_history_lookup ON {{schema}}.history (instance_id, execution_id, event_id);

-- The runner creates the ledger before the first file runs; this keeps the file self-contained.
CREATE TABLE IF NOT EXISTS {{schema}}._duroxide_migrations (
    version    BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP
);
