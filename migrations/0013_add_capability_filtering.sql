-- 0013 capability filtering: an execution records the duroxide version it is pinned to, and a
-- fetch can ask only for instances whose pinned version lies in a packed range
-- (major * 1000000 + minor * 1000 + patch, bounds inclusive), so dispatchers of different
-- duroxide versions can share a schema. Unpinned instances are always eligible.

ALTER TABLE {{schema}}.executions ADD COLUMN IF NOT EXISTS duroxide_version_major INTEGER;
ALTER TABLE {{schema}}.executions ADD COLUMN IF NOT EXISTS duroxide_version_minor INTEGER;
ALTER TABLE {{schema}}.executions ADD COLUMN IF NOT EXISTS duroxide_version_patch INTEGER;

DROP FUNCTION IF EXISTS {{schema}}.fetch_orchestration_item(BIGINT, BIGINT);
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
        RETURN;
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

END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.ack_orchestration_item(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_execution_id BIGINT,
    p_history_delta JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB,
    p_cancelled_activities JSONB DEFAULT '[]'::JSONB
)
RETURNS VOID AS $fn$
DECLARE
    v_now_ts TIMESTAMPTZ := to_timestamp(p_now_ms / 1000.0);
    v_instance_id TEXT;
    v_name TEXT := p_metadata->>'orchestration_name';
    v_version TEXT := p_metadata->>'orchestration_version';
    v_parent_id TEXT := p_metadata->>'parent_instance_id';
    v_status TEXT := p_metadata->>'status';
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    IF v_name IS NOT NULL AND v_version IS NOT NULL THEN
        INSERT INTO {{schema}}.instances AS i
            (instance_id, orchestration_name, orchestration_version, current_execution_id,
             parent_instance_id, created_at, updated_at)
        VALUES (v_instance_id, v_name, v_version, p_execution_id, v_parent_id, v_now_ts, v_now_ts)
        ON CONFLICT (instance_id) DO UPDATE
        SET orchestration_name = EXCLUDED.orchestration_name,
            orchestration_version = EXCLUDED.orchestration_version,
            -- The parent is set once: a later turn never re-parents an instance.
            parent_instance_id = COALESCE(i.parent_instance_id, EXCLUDED.parent_instance_id),
            current_execution_id = GREATEST(i.current_execution_id, EXCLUDED.current_execution_id),
            updated_at = EXCLUDED.updated_at;
    ELSE
        UPDATE {{schema}}.instances
        SET current_execution_id = GREATEST(current_execution_id, p_execution_id),
            updated_at = v_now_ts
        WHERE instance_id = v_instance_id;
    END IF;

    INSERT INTO {{schema}}.executions (instance_id, execution_id, status, started_at)
    VALUES (v_instance_id, p_execution_id, 'Running', v_now_ts)
    ON CONFLICT (instance_id, execution_id) DO NOTHING;

    INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data, created_at)
    SELECT v_instance_id, p_execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data',
           v_now_ts
    FROM jsonb_array_elements(COALESCE(p_history_delta, '[]'::JSONB)) AS e;

    IF v_status IS NOT NULL THEN
        UPDATE {{schema}}.executions
        SET status = v_status,
            output = p_metadata->>'output',
            completed_at = CASE WHEN v_status IN ('Completed', 'Failed') THEN v_now_ts END
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    -- The duroxide version the execution is pinned to, used by version-filtered fetches.
    IF jsonb_typeof(p_metadata->'pinned_duroxide_version') = 'object' THEN
        UPDATE {{schema}}.executions
        SET duroxide_version_major = (p_metadata->'pinned_duroxide_version'->>'major')::INTEGER,
            duroxide_version_minor = (p_metadata->'pinned_duroxide_version'->>'minor')::INTEGER,
            duroxide_version_patch = (p_metadata->'pinned_duroxide_version'->>'patch')::INTEGER
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    INSERT INTO {{schema}}.worker_queue (work_item, visible_at, created_at, instance_id, execution_id, activity_id)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT
    FROM jsonb_array_elements(COALESCE(p_worker_items, '[]'::JSONB)) WITH ORDINALITY AS t(w, n)
    ORDER BY n;

    DELETE FROM {{schema}}.worker_queue q
    USING jsonb_array_elements(COALESCE(p_cancelled_activities, '[]'::JSONB)) AS c
    WHERE q.instance_id = c->>'instance'
      AND q.execution_id = (c->>'execution_id')::BIGINT
      AND q.activity_id = (c->>'activity_id')::BIGINT;

    INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    SELECT COALESCE(
               COALESCE(o->'SubOrchCompleted', o->'SubOrchFailed')->>'parent_instance',
               COALESCE(o->'StartOrchestration', o->'ContinueAsNew', o->'TimerFired',
                        o->'ActivityCompleted', o->'ActivityFailed', o->'ExternalRaised',
                        o->'CancelInstance', o->'QueueMessage')->>'instance',
               v_instance_id),
           o::TEXT,
           CASE WHEN (o->'TimerFired'->>'fire_at_ms')::BIGINT > 0
                THEN to_timestamp((o->'TimerFired'->>'fire_at_ms')::BIGINT / 1000.0)
                ELSE v_now_ts END,
           v_now_ts
    FROM jsonb_array_elements(COALESCE(p_orchestrator_items, '[]'::JSONB)) WITH ORDINALITY AS t(o, n)
    ORDER BY n;

    DELETE FROM {{schema}}.orchestrator_queue WHERE lock_token = p_lock_token;
    DELETE FROM {{schema}}.instance_locks
    WHERE instance_id = v_instance_id AND lock_token = p_lock_token;
END;
$fn$ LANGUAGE plpgsql;
