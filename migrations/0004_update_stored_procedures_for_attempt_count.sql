-- 0004 procedures use the attempt counters of 0003: a claim increments them and reports the
-- highest count among the claimed messages; an abandon with p_ignore_attempt gives the attempt
-- back (the runtime uses it when the failure was not the message's fault).

CREATE OR REPLACE FUNCTION {{schema}}.fetch_work_item(p_now_ms BIGINT, p_lock_timeout_ms BIGINT)
RETURNS TABLE(out_work_item TEXT, out_lock_token TEXT, out_attempt_count INTEGER) AS $fn$
DECLARE
    v_id BIGINT;
BEGIN
    SELECT q.id INTO v_id
    FROM {{schema}}.worker_queue q
    WHERE q.lock_token IS NULL OR q.locked_until <= p_now_ms
    ORDER BY q.id
    LIMIT 1
    FOR UPDATE OF q SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    out_lock_token := 'lock_' || gen_random_uuid()::TEXT;
    UPDATE {{schema}}.worker_queue
    SET lock_token = out_lock_token,
        locked_until = p_now_ms + p_lock_timeout_ms,
        attempt_count = attempt_count + 1
    WHERE id = v_id
    RETURNING work_item, attempt_count INTO out_work_item, out_attempt_count;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.fetch_orchestration_item(p_now_ms BIGINT, p_lock_timeout_ms BIGINT)
RETURNS TABLE(
    out_instance_id TEXT,
    out_orchestration_name TEXT,
    out_orchestration_version TEXT,
    out_execution_id BIGINT,
    out_history JSONB,
    out_messages JSONB,
    out_lock_token TEXT,
    out_attempt_count INTEGER
) AS $fn$
DECLARE
    v_now_ts TIMESTAMPTZ := to_timestamp(p_now_ms / 1000.0);
    v_instance_id TEXT;
    v_lock_token TEXT := 'lock_' || gen_random_uuid()::TEXT;
    v_locked_until BIGINT := p_now_ms + p_lock_timeout_ms;
    v_name TEXT;
    v_version TEXT;
    v_execution_id BIGINT;
    v_history JSONB;
    v_messages JSONB;
    v_attempt_count INTEGER;
BEGIN
    SELECT q.instance_id INTO v_instance_id
    FROM {{schema}}.orchestrator_queue q
    WHERE q.visible_at <= v_now_ts
      AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                      WHERE il.instance_id = q.instance_id AND il.locked_until > p_now_ms)
    ORDER BY q.visible_at, q.id
    LIMIT 1;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    PERFORM pg_advisory_xact_lock(hashtext(v_instance_id));

    PERFORM 1
    FROM {{schema}}.orchestrator_queue q
    WHERE q.instance_id = v_instance_id
      AND q.visible_at <= v_now_ts
      AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                      WHERE il.instance_id = q.instance_id AND il.locked_until > p_now_ms)
    FOR UPDATE OF q SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    INSERT INTO {{schema}}.instance_locks AS il (instance_id, lock_token, locked_until, locked_at)
    VALUES (v_instance_id, v_lock_token, v_locked_until, p_now_ms)
    ON CONFLICT (instance_id) DO UPDATE
    SET lock_token = EXCLUDED.lock_token,
        locked_until = EXCLUDED.locked_until,
        locked_at = EXCLUDED.locked_at
    WHERE il.locked_until <= p_now_ms;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    UPDATE {{schema}}.orchestrator_queue q
    SET lock_token = v_lock_token, locked_until = v_locked_until, attempt_count = q.attempt_count + 1
    WHERE q.instance_id = v_instance_id
      AND q.visible_at <= v_now_ts
      AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms);

    SELECT COALESCE(jsonb_agg(q.work_item::JSONB ORDER BY q.id), '[]'::JSONB),
           COALESCE(max(q.attempt_count), 1)
    INTO v_messages, v_attempt_count
    FROM {{schema}}.orchestrator_queue q
    WHERE q.lock_token = v_lock_token;

    SELECT i.orchestration_name, COALESCE(i.orchestration_version, 'unknown'), i.current_execution_id
    INTO v_name, v_version, v_execution_id
    FROM {{schema}}.instances i
    WHERE i.instance_id = v_instance_id;

    IF FOUND THEN
        SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.event_id), '[]'::JSONB)
        INTO v_history
        FROM {{schema}}.history h
        WHERE h.instance_id = v_instance_id AND h.execution_id = v_execution_id;
    ELSE
        SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.execution_id, h.event_id), '[]'::JSONB)
        INTO v_history
        FROM {{schema}}.history h
        WHERE h.instance_id = v_instance_id;
        IF v_messages->0 ? 'StartOrchestration' THEN
            v_name := v_messages->0->'StartOrchestration'->>'orchestration';
            v_version := COALESCE(v_messages->0->'StartOrchestration'->>'version', 'unknown');
            v_execution_id := COALESCE((v_messages->0->'StartOrchestration'->>'execution_id')::BIGINT, 1);
        ELSIF v_messages->0 ? 'ContinueAsNew' THEN
            v_name := v_messages->0->'ContinueAsNew'->>'orchestration';
            v_version := COALESCE(v_messages->0->'ContinueAsNew'->>'version', 'unknown');
            v_execution_id := 1;
        ELSE
            v_name := 'Unknown';
            v_version := 'unknown';
            v_execution_id := 1;
        END IF;
    END IF;

    RETURN QUERY SELECT v_instance_id, v_name, v_version, v_execution_id, v_history, v_messages,
                        v_lock_token, v_attempt_count;
END;
$fn$ LANGUAGE plpgsql;

-- A delay keeps the row locked until the delay ends (0005 moves delays to visible_at).
CREATE OR REPLACE FUNCTION {{schema}}.abandon_work_item(
    p_lock_token TEXT,
    p_delay_ms BIGINT DEFAULT NULL,
    p_ignore_attempt BOOLEAN DEFAULT FALSE
)
RETURNS VOID AS $fn$
BEGIN
    IF p_delay_ms > 0 THEN
        UPDATE {{schema}}.worker_queue
        SET locked_until = (extract(EPOCH FROM now()) * 1000)::BIGINT + p_delay_ms,
            attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                                 ELSE attempt_count END
        WHERE lock_token = p_lock_token;
    ELSE
        UPDATE {{schema}}.worker_queue
        SET lock_token = NULL,
            locked_until = NULL,
            attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                                 ELSE attempt_count END
        WHERE lock_token = p_lock_token;
    END IF;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token or already acked';
    END IF;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.abandon_orchestration_item(
    p_lock_token TEXT,
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
        visible_at = CASE WHEN p_delay_ms > 0
                          THEN now() + make_interval(secs => p_delay_ms / 1000.0)
                          ELSE visible_at END,
        attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                             ELSE attempt_count END
    WHERE lock_token = p_lock_token;

    DELETE FROM {{schema}}.instance_locks WHERE lock_token = p_lock_token;
    RETURN v_instance_id;
END;
$fn$ LANGUAGE plpgsql;
