-- duroxide SQLite schema, version 20240101000000: the tables every store starts with.
-- Same tables, columns and indexes as duroxide's SQLite provider creates in this version, so a
-- Rust process and a duro process can open one file. Times written by either provider are epoch
-- milliseconds, except that a row's created/updated default is SQLite's CURRENT_TIMESTAMP text;
-- @duro/provider-sqlite always writes milliseconds and reads both forms.

CREATE TABLE IF NOT EXISTS instances (
    instance_id           TEXT PRIMARY KEY,
    orchestration_name    TEXT NOT NULL,
    orchestration_version TEXT NOT NULL,
    current_execution_id  INTEGER NOT NULL DEFAULT 1,
    created_at            TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at            TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE IF NOT EXISTS executions (
    instance_id  TEXT NOT NULL,
    execution_id INTEGER NOT NULL,
    status       TEXT NOT NULL DEFAULT 'Running',
    output       TEXT,
    started_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    completed_at TIMESTAMP,
    PRIMARY KEY (instance_id, execution_id)
);

-- Append-only; event_data is the event as duroxide's serde JSON.
CREATE TABLE IF NOT EXISTS history (
    instance_id  TEXT NOT NULL,
    execution_id INTEGER NOT NULL,
    event_id     INTEGER NOT NULL,
    event_type   TEXT NOT NULL,
    event_data   TEXT NOT NULL,
    created_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (instance_id, execution_id, event_id)
);

CREATE TABLE IF NOT EXISTS orchestrator_queue (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    instance_id  TEXT NOT NULL,
    work_item    TEXT NOT NULL,
    visible_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    lock_token   TEXT,
    locked_until TIMESTAMP,
    created_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX IF NOT EXISTS idx_orch_visible ON orchestrator_queue (visible_at, lock_token);
CREATE INDEX IF NOT EXISTS idx_orch_instance ON orchestrator_queue (instance_id);
CREATE INDEX IF NOT EXISTS idx_orch_lock ON orchestrator_queue (lock_token);

CREATE TABLE IF NOT EXISTS worker_queue (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    work_item    TEXT NOT NULL,
    lock_token   TEXT,
    locked_until TIMESTAMP,
    created_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX IF NOT EXISTS idx_worker_available ON worker_queue (lock_token, id);

-- Unused since timers became delayed orchestrator messages; kept so the schema is duroxide's.
CREATE TABLE IF NOT EXISTS timer_queue (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    work_item    TEXT NOT NULL,
    fire_at      TIMESTAMP NOT NULL,
    lock_token   TEXT,
    locked_until TIMESTAMP,
    created_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX IF NOT EXISTS idx_timer_fire ON timer_queue (fire_at, lock_token);

-- One row per claimed instance; locked_until and locked_at are epoch milliseconds.
CREATE TABLE IF NOT EXISTS instance_locks (
    instance_id  TEXT PRIMARY KEY,
    lock_token   TEXT NOT NULL,
    locked_until INTEGER NOT NULL,
    locked_at    INTEGER NOT NULL
);
