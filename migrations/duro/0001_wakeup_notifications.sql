-- duro 0001 wake-up notifications: when a queue row becomes fetchable, PostgreSQL sends a NOTIFY
-- on the queue's channel, so idle dispatchers can LISTEN instead of polling tightly.
--
-- A row becomes fetchable when it is inserted visible (now, or within the next second: the
-- writer's clock may run a little ahead of the database's), when an abandon releases it, or,
-- for the orchestrator queue, when its instance's lock is released while messages that arrived
-- during the turn are waiting. Rows that become visible later (timers, delayed retries) send
-- nothing when they come due: listeners keep a slow poll for those.
--
-- The notifications come from statement-level triggers, not from the procedures, so they keep
-- working whichever runner (re)defines the duroxide procedures later. The payload is empty:
-- PostgreSQL folds identical notifications of one transaction into one, so an ack that enqueues
-- a hundred messages wakes each listener once.

-- The channel of a schema's queue: 'duro_orch_<schema>' or 'duro_work_<schema>', or, when that
-- is longer than PostgreSQL's 63-byte limit, the first 40 bytes of the schema name plus '_' and
-- the first 12 hex digits of its md5. Mirrored by wakeupChannel() in
-- packages/provider-postgres/src/wakeup-channel.ts; the two must change together.
CREATE OR REPLACE FUNCTION {{schema}}.duro_wakeup_channel(p_schema TEXT, p_queue TEXT)
RETURNS TEXT AS $fn$
DECLARE
    v_prefix TEXT := CASE p_queue WHEN 'orchestrator' THEN 'duro_orch_' WHEN 'worker' THEN 'duro_work_' END;
    v_schema TEXT := lower(p_schema);
BEGIN
    IF v_prefix IS NULL THEN
        RAISE EXCEPTION 'unknown queue %, expected orchestrator or worker', p_queue;
    END IF;
    IF octet_length(v_prefix || v_schema) <= 63 THEN
        RETURN v_prefix || v_schema;
    END IF;
    RETURN v_prefix || left(v_schema, 40) || '_' || left(md5(v_schema), 12);
END;
$fn$ LANGUAGE plpgsql IMMUTABLE;

CREATE OR REPLACE FUNCTION {{schema}}.duro_notify_queue_insert()
RETURNS TRIGGER AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted_rows r WHERE r.visible_at <= now() + INTERVAL '1 second') THEN
        PERFORM pg_notify({{schema}}.duro_wakeup_channel(TG_TABLE_SCHEMA,
                              CASE TG_TABLE_NAME WHEN 'orchestrator_queue' THEN 'orchestrator' ELSE 'worker' END),
                          '');
    END IF;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;

-- Fetches and renewals leave lock_token set; only a release (abandon) leaves it NULL.
CREATE OR REPLACE FUNCTION {{schema}}.duro_notify_queue_release()
RETURNS TRIGGER AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM updated_rows r
               WHERE r.lock_token IS NULL AND r.visible_at <= now() + INTERVAL '1 second') THEN
        PERFORM pg_notify({{schema}}.duro_wakeup_channel(TG_TABLE_SCHEMA,
                              CASE TG_TABLE_NAME WHEN 'orchestrator_queue' THEN 'orchestrator' ELSE 'worker' END),
                          '');
    END IF;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;

-- An ack deletes its own messages before its instance lock, so what is left unlocked for the
-- instance arrived during the turn and is fetchable now.
CREATE OR REPLACE FUNCTION {{schema}}.duro_notify_instance_release()
RETURNS TRIGGER AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM released_locks l
               JOIN {{schema}}.orchestrator_queue q ON q.instance_id = l.instance_id
               WHERE q.lock_token IS NULL AND q.visible_at <= now() + INTERVAL '1 second') THEN
        PERFORM pg_notify({{schema}}.duro_wakeup_channel(TG_TABLE_SCHEMA, 'orchestrator'), '');
    END IF;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS duro_wakeup_on_insert ON {{schema}}.orchestrator_queue;
CREATE TRIGGER duro_wakeup_on_insert AFTER INSERT ON {{schema}}.orchestrator_queue
    REFERENCING NEW TABLE AS inserted_rows
    FOR EACH STATEMENT EXECUTE FUNCTION {{schema}}.duro_notify_queue_insert();

DROP TRIGGER IF EXISTS duro_wakeup_on_release ON {{schema}}.orchestrator_queue;
CREATE TRIGGER duro_wakeup_on_release AFTER UPDATE ON {{schema}}.orchestrator_queue
    REFERENCING NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION {{schema}}.duro_notify_queue_release();

DROP TRIGGER IF EXISTS duro_wakeup_on_insert ON {{schema}}.worker_queue;
CREATE TRIGGER duro_wakeup_on_insert AFTER INSERT ON {{schema}}.worker_queue
    REFERENCING NEW TABLE AS inserted_rows
    FOR EACH STATEMENT EXECUTE FUNCTION {{schema}}.duro_notify_queue_insert();

DROP TRIGGER IF EXISTS duro_wakeup_on_release ON {{schema}}.worker_queue;
CREATE TRIGGER duro_wakeup_on_release AFTER UPDATE ON {{schema}}.worker_queue
    REFERENCING NEW TABLE AS updated_rows
    FOR EACH STATEMENT EXECUTE FUNCTION {{schema}}.duro_notify_queue_release();

DROP TRIGGER IF EXISTS duro_wakeup_on_instance_release ON {{schema}}.instance_locks;
CREATE TRIGGER duro_wakeup_on_instance_release AFTER DELETE ON {{schema}}.instance_locks
    REFERENCING OLD TABLE AS released_locks
    FOR EACH STATEMENT EXECUTE FUNCTION {{schema}}.duro_notify_instance_release();
