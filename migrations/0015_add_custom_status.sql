-- 0015 custom status: an instance carries the latest status text its orchestration set and a
-- version that every set or clear increments, so a client can wait for the next change. A worker
-- ack now also refuses a lease that has expired.

ALTER TABLE {{schema}}.instances ADD COLUMN IF NOT EXISTS custom_status TEXT;
ALTER TABLE {{schema}}.instances ADD COLUMN IF NOT EXISTS custom_status_version INTEGER NOT NULL DEFAULT 0;

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

    -- Every set or clear bumps the version, so a waiting client sees each change once.
    IF p_metadata->>'custom_status_action' IN ('set', 'clear') THEN
        UPDATE {{schema}}.instances
        SET custom_status = CASE WHEN p_metadata->>'custom_status_action' = 'set'
                                 THEN p_metadata->>'custom_status_value' END,
            custom_status_version = custom_status_version + 1
        WHERE instance_id = v_instance_id;
    END IF;

    -- The duroxide version the execution is pinned to, used by version-filtered fetches.
    IF jsonb_typeof(p_metadata->'pinned_duroxide_version') = 'object' THEN
        UPDATE {{schema}}.executions
        SET duroxide_version_major = (p_metadata->'pinned_duroxide_version'->>'major')::INTEGER,
            duroxide_version_minor = (p_metadata->'pinned_duroxide_version'->>'minor')::INTEGER,
            duroxide_version_patch = (p_metadata->'pinned_duroxide_version'->>'patch')::INTEGER
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    INSERT INTO {{schema}}.worker_queue
        (work_item, visible_at, created_at, instance_id, execution_id, activity_id, session_id)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT,
           w->'ActivityExecute'->>'session_id'
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

CREATE OR REPLACE FUNCTION {{schema}}.ack_worker(
    p_lock_token TEXT,
    p_instance_id TEXT DEFAULT NULL,
    p_completion_json TEXT DEFAULT NULL,
    p_now_ms BIGINT DEFAULT NULL
)
RETURNS VOID AS $fn$
DECLARE
    v_session_id TEXT;
BEGIN
    IF p_completion_json IS NOT NULL AND p_instance_id IS NULL THEN
        RAISE EXCEPTION 'p_instance_id is required when p_completion_json is provided';
    END IF;
    IF p_completion_json IS NOT NULL AND p_now_ms IS NULL THEN
        RAISE EXCEPTION 'p_now_ms is required when p_completion_json is provided';
    END IF;

    -- Without a clock the lease cannot be judged, so only the token is checked.
    DELETE FROM {{schema}}.worker_queue
    WHERE lock_token = p_lock_token AND (p_now_ms IS NULL OR locked_until > p_now_ms)
    RETURNING session_id INTO v_session_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Worker queue item not found or already processed';
    END IF;

    IF p_completion_json IS NOT NULL THEN
        INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
        VALUES (p_instance_id, p_completion_json, to_timestamp(p_now_ms / 1000.0), to_timestamp(p_now_ms / 1000.0));
    END IF;

    IF v_session_id IS NOT NULL AND p_now_ms IS NOT NULL THEN
        UPDATE {{schema}}.sessions SET last_activity_at = p_now_ms
        WHERE session_id = v_session_id AND locked_until > p_now_ms;
    END IF;
END;
$fn$ LANGUAGE plpgsql;

-- The custom status, but only when its version is newer than the one the caller has seen.
CREATE OR REPLACE FUNCTION {{schema}}.get_custom_status(p_instance_id TEXT, p_last_seen_version BIGINT)
RETURNS TABLE(out_custom_status TEXT, out_custom_status_version BIGINT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT i.custom_status, i.custom_status_version::BIGINT
    FROM {{schema}}.instances i
    WHERE i.instance_id = p_instance_id AND i.custom_status_version > p_last_seen_version;
END;
$fn$ LANGUAGE plpgsql;
