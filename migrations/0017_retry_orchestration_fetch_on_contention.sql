-- 0017 fetch retries on contention: when the instance a fetch picked is taken by another fetcher
-- first, the fetch looks for the next candidate instead of returning empty, so an empty result
-- means there is no eligible work.

CREATE OR REPLACE FUNCTION {{schema}}.fetch_orchestration_item(
    p_now_ms BIGINT,
    p_lock_timeout_ms BIGINT,
    p_min_version_packed BIGINT DEFAULT NULL,
    p_max_version_packed BIGINT DEFAULT NULL
)
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
    v_lock_token TEXT;
    v_locked_until BIGINT := p_now_ms + p_lock_timeout_ms;
    v_name TEXT;
    v_version TEXT;
    v_execution_id BIGINT;
    v_history JSONB;
    v_messages JSONB;
    v_attempt_count INTEGER;
BEGIN
    -- Loops until it claims an instance or finds no candidate: losing one instance to another
    -- fetcher no longer means returning empty while other instances wait.
    LOOP
        SELECT q.instance_id INTO v_instance_id
        FROM {{schema}}.orchestrator_queue q
        WHERE q.visible_at <= v_now_ts
          AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                          WHERE il.instance_id = q.instance_id AND il.locked_until > p_now_ms)
          AND (p_min_version_packed IS NULL OR NOT EXISTS (
                SELECT 1 FROM {{schema}}.instances i
                JOIN {{schema}}.executions e
                  ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
                WHERE i.instance_id = q.instance_id
                  AND e.duroxide_version_major IS NOT NULL
                  AND (e.duroxide_version_major * 1000000 + e.duroxide_version_minor * 1000
                       + e.duroxide_version_patch
                       BETWEEN p_min_version_packed AND p_max_version_packed) IS NOT TRUE))
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
          AND (p_min_version_packed IS NULL OR NOT EXISTS (
                SELECT 1 FROM {{schema}}.instances i
                JOIN {{schema}}.executions e
                  ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
                WHERE i.instance_id = q.instance_id
                  AND e.duroxide_version_major IS NOT NULL
                  AND (e.duroxide_version_major * 1000000 + e.duroxide_version_minor * 1000
                       + e.duroxide_version_patch
                       BETWEEN p_min_version_packed AND p_max_version_packed) IS NOT TRUE))
        FOR UPDATE OF q SKIP LOCKED;
        IF NOT FOUND THEN
            CONTINUE;
        END IF;

        v_lock_token := 'lock_' || gen_random_uuid()::TEXT;
        INSERT INTO {{schema}}.instance_locks AS il (instance_id, lock_token, locked_until, locked_at)
        VALUES (v_instance_id, v_lock_token, v_locked_until, p_now_ms)
        ON CONFLICT (instance_id) DO UPDATE
        SET lock_token = EXCLUDED.lock_token,
            locked_until = EXCLUDED.locked_until,
            locked_at = EXCLUDED.locked_at
        WHERE il.locked_until <= p_now_ms;
        IF NOT FOUND THEN
            CONTINUE;
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
            -- No instance row yet (first turn): name and version come from the starting message.
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
        RETURN;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;
