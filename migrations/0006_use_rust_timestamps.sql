-- 0006 the caller's clock: enqueue, abandon and worker ack take p_now_ms (epoch milliseconds from
-- the process that calls) and derive visibility and creation times from it, so leases,
-- visibility and timers are all judged on one clock.
--
-- duroxide-pg also adds four procedures here that no released provider calls
-- (enqueue_orchestration_work, enqueue_completion, enqueue_message, ack_orchestration). They are
-- created with the same signatures so the catalog matches; the three enqueue variants work,
-- ack_orchestration refuses to run (its duroxide-pg body writes columns the schema never had).

DROP FUNCTION IF EXISTS {{schema}}.enqueue_worker_work(TEXT);
CREATE OR REPLACE FUNCTION {{schema}}.enqueue_worker_work(p_work_item TEXT, p_now_ms BIGINT)
RETURNS VOID AS $fn$
DECLARE
    v_now_ts TIMESTAMPTZ := to_timestamp(p_now_ms / 1000.0);
BEGIN
    INSERT INTO {{schema}}.worker_queue (work_item, visible_at, created_at)
    VALUES (p_work_item, v_now_ts, v_now_ts);
END;
$fn$ LANGUAGE plpgsql;

DROP FUNCTION IF EXISTS {{schema}}.abandon_work_item(TEXT, BIGINT, BOOLEAN);
CREATE OR REPLACE FUNCTION {{schema}}.abandon_work_item(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_delay_ms BIGINT DEFAULT NULL,
    p_ignore_attempt BOOLEAN DEFAULT FALSE
)
RETURNS VOID AS $fn$
BEGIN
    UPDATE {{schema}}.worker_queue
    SET lock_token = NULL,
        locked_until = NULL,
        visible_at = to_timestamp((p_now_ms + GREATEST(COALESCE(p_delay_ms, 0), 0)) / 1000.0),
        attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                             ELSE attempt_count END
    WHERE lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token or already acked';
    END IF;
END;
$fn$ LANGUAGE plpgsql;

DROP FUNCTION IF EXISTS {{schema}}.abandon_orchestration_item(TEXT, BIGINT, BOOLEAN);
CREATE OR REPLACE FUNCTION {{schema}}.abandon_orchestration_item(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_delay_ms BIGINT DEFAULT NULL,
    p_ignore_attempt BOOLEAN DEFAULT FALSE
)
RETURNS TEXT AS $fn$
DECLARE
    v_instance_id TEXT;
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    UPDATE {{schema}}.orchestrator_queue
    SET lock_token = NULL,
        locked_until = NULL,
        visible_at = CASE WHEN p_delay_ms > 0 THEN to_timestamp((p_now_ms + p_delay_ms) / 1000.0)
                          ELSE visible_at END,
        attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                             ELSE attempt_count END
    WHERE lock_token = p_lock_token;

    DELETE FROM {{schema}}.instance_locks WHERE lock_token = p_lock_token;
    RETURN v_instance_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.enqueue_orchestration_work(p_instance_id TEXT, p_work_item TEXT, p_now_ms BIGINT)
RETURNS VOID AS $fn$
BEGIN
    INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    VALUES (p_instance_id, p_work_item, to_timestamp(p_now_ms / 1000.0), to_timestamp(p_now_ms / 1000.0));
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.enqueue_completion(p_instance_id TEXT, p_completion_json TEXT, p_now_ms BIGINT)
RETURNS VOID AS $fn$
BEGIN
    INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    VALUES (p_instance_id, p_completion_json, to_timestamp(p_now_ms / 1000.0), to_timestamp(p_now_ms / 1000.0));
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.enqueue_message(
    p_instance_id TEXT,
    p_work_item TEXT,
    p_visible_at_ms BIGINT,
    p_now_ms BIGINT
)
RETURNS VOID AS $fn$
BEGIN
    INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    VALUES (p_instance_id, p_work_item, to_timestamp(p_visible_at_ms / 1000.0), to_timestamp(p_now_ms / 1000.0));
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.ack_orchestration(p_lock_token TEXT, p_state_json JSONB, p_now_ms BIGINT)
RETURNS VOID AS $fn$
BEGIN
    RAISE EXCEPTION 'ack_orchestration is not supported; call ack_orchestration_item';
END;
$fn$ LANGUAGE plpgsql;

DROP FUNCTION IF EXISTS {{schema}}.ack_worker(TEXT, TEXT, TEXT);
CREATE OR REPLACE FUNCTION {{schema}}.ack_worker(
    p_lock_token TEXT,
    p_instance_id TEXT DEFAULT NULL,
    p_completion_json TEXT DEFAULT NULL,
    p_now_ms BIGINT DEFAULT NULL
)
RETURNS VOID AS $fn$
BEGIN
    DELETE FROM {{schema}}.worker_queue WHERE lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Worker queue item not found or already processed';
    END IF;
    IF p_completion_json IS NOT NULL THEN
        IF p_instance_id IS NULL THEN
            RAISE EXCEPTION 'p_instance_id is required when p_completion_json is provided';
        END IF;
        IF p_now_ms IS NULL THEN
            RAISE EXCEPTION 'p_now_ms is required when p_completion_json is provided';
        END IF;
        INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
        VALUES (p_instance_id, p_completion_json, to_timestamp(p_now_ms / 1000.0), to_timestamp(p_now_ms / 1000.0));
    END IF;
END;
$fn$ LANGUAGE plpgsql;
