-- 0020 key/value deltas: the mutations of the execution in progress live in kv_delta (NULL value
-- = cleared key) and are merged into kv_store when the execution completes, continues as new or
-- fails. Reads merge both tables, the delta winning.

CREATE TABLE IF NOT EXISTS {{schema}}.kv_delta (
    instance_id        TEXT NOT NULL,
    key                TEXT NOT NULL,
    value              TEXT,
    last_updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (instance_id, key)
);

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
    v_mutation JSONB;
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

    -- Key/value mutations of this turn go to kv_delta (a NULL value is a cleared key); they reach
    -- kv_store only when the execution ends, so a turn that is replayed never sees its own
    -- uncommitted writes as the execution's starting state.
    FOR v_mutation IN
        SELECT m FROM jsonb_array_elements(COALESCE(p_metadata->'kv_mutations', '[]'::JSONB)) AS m
    LOOP
        CASE v_mutation->>'action'
            WHEN 'set' THEN
                INSERT INTO {{schema}}.kv_delta AS d (instance_id, key, value, last_updated_at_ms)
                VALUES (v_instance_id, v_mutation->>'key', v_mutation->>'value',
                        COALESCE((v_mutation->>'last_updated_at_ms')::BIGINT, p_now_ms))
                ON CONFLICT (instance_id, key) DO UPDATE
                SET value = EXCLUDED.value, last_updated_at_ms = EXCLUDED.last_updated_at_ms;
            WHEN 'clear_key' THEN
                INSERT INTO {{schema}}.kv_delta AS d (instance_id, key, value, last_updated_at_ms)
                VALUES (v_instance_id, v_mutation->>'key', NULL, p_now_ms)
                ON CONFLICT (instance_id, key) DO UPDATE
                SET value = NULL, last_updated_at_ms = EXCLUDED.last_updated_at_ms;
            WHEN 'clear_all' THEN
                UPDATE {{schema}}.kv_delta SET value = NULL, last_updated_at_ms = p_now_ms
                WHERE instance_id = v_instance_id;
                INSERT INTO {{schema}}.kv_delta (instance_id, key, value, last_updated_at_ms)
                SELECT s.instance_id, s.key, NULL, p_now_ms
                FROM {{schema}}.kv_store s
                WHERE s.instance_id = v_instance_id
                ON CONFLICT (instance_id, key) DO NOTHING;
            ELSE
                NULL;
        END CASE;
    END LOOP;

    IF v_status IN ('Completed', 'ContinuedAsNew', 'Failed') THEN
        INSERT INTO {{schema}}.kv_store AS s (instance_id, key, value, execution_id, last_updated_at_ms)
        SELECT d.instance_id, d.key, d.value, p_execution_id, d.last_updated_at_ms
        FROM {{schema}}.kv_delta d
        WHERE d.instance_id = v_instance_id AND d.value IS NOT NULL
        ON CONFLICT (instance_id, key) DO UPDATE
        SET value = EXCLUDED.value,
            execution_id = EXCLUDED.execution_id,
            last_updated_at_ms = EXCLUDED.last_updated_at_ms;
        DELETE FROM {{schema}}.kv_store s
        USING {{schema}}.kv_delta d
        WHERE s.instance_id = v_instance_id
          AND d.instance_id = v_instance_id
          AND d.key = s.key
          AND d.value IS NULL;
        DELETE FROM {{schema}}.kv_delta WHERE instance_id = v_instance_id;
    END IF;

    INSERT INTO {{schema}}.worker_queue
        (work_item, visible_at, created_at, instance_id, execution_id, activity_id, session_id, tag)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT,
           w->'ActivityExecute'->>'session_id',
           w->'ActivityExecute'->>'tag'
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

-- Deletes the given instances and everything that belongs to them in one transaction. Without
-- p_force a running instance is refused; a child whose parent is deleted must be in the list too.
CREATE OR REPLACE FUNCTION {{schema}}.delete_instances_atomic(p_instance_ids TEXT[], p_force BOOLEAN)
RETURNS TABLE(
    instances_deleted BIGINT,
    executions_deleted BIGINT,
    events_deleted BIGINT,
    queue_messages_deleted BIGINT
) AS $fn$
DECLARE
    v_blocking_id TEXT;
    v_count BIGINT;
BEGIN
    instances_deleted := 0;
    executions_deleted := 0;
    events_deleted := 0;
    queue_messages_deleted := 0;
    IF COALESCE(cardinality(p_instance_ids), 0) = 0 THEN
        RETURN NEXT;
        RETURN;
    END IF;

    IF NOT p_force THEN
        SELECT i.instance_id INTO v_blocking_id
        FROM {{schema}}.instances i
        JOIN {{schema}}.executions e
          ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
        WHERE i.instance_id = ANY (p_instance_ids) AND e.status = 'Running'
        LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'Instance % is Running. Use force=true to delete.', v_blocking_id;
        END IF;
    END IF;

    -- Locking the rows first keeps a concurrent turn from adding a child between the orphan
    -- check and the deletes.
    PERFORM 1 FROM {{schema}}.instances WHERE instance_id = ANY (p_instance_ids) FOR UPDATE;

    SELECT i.instance_id INTO v_blocking_id
    FROM {{schema}}.instances i
    WHERE i.parent_instance_id = ANY (p_instance_ids) AND i.instance_id <> ALL (p_instance_ids)
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'Orphan detected: instance % has parent in delete list but is not included', v_blocking_id;
    END IF;

    DELETE FROM {{schema}}.history WHERE instance_id = ANY (p_instance_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    events_deleted := v_count;
    DELETE FROM {{schema}}.executions WHERE instance_id = ANY (p_instance_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    executions_deleted := v_count;
    DELETE FROM {{schema}}.orchestrator_queue WHERE instance_id = ANY (p_instance_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    queue_messages_deleted := v_count;
    DELETE FROM {{schema}}.worker_queue WHERE instance_id = ANY (p_instance_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    queue_messages_deleted := queue_messages_deleted + v_count;
    DELETE FROM {{schema}}.instance_locks WHERE instance_id = ANY (p_instance_ids);
    DELETE FROM {{schema}}.kv_delta WHERE instance_id = ANY (p_instance_ids);
    DELETE FROM {{schema}}.kv_store WHERE instance_id = ANY (p_instance_ids);
    DELETE FROM {{schema}}.instances WHERE instance_id = ANY (p_instance_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    instances_deleted := v_count;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

-- One key of an instance: out_found is false for a key never set or cleared.
CREATE OR REPLACE FUNCTION {{schema}}.get_kv_value(p_instance TEXT, p_key TEXT)
RETURNS TABLE(out_value TEXT, out_found BOOLEAN) AS $fn$
BEGIN
    SELECT d.value, d.value IS NOT NULL INTO out_value, out_found
    FROM {{schema}}.kv_delta d
    WHERE d.instance_id = p_instance AND d.key = p_key;
    IF NOT FOUND THEN
        SELECT s.value, TRUE INTO out_value, out_found
        FROM {{schema}}.kv_store s
        WHERE s.instance_id = p_instance AND s.key = p_key;
        IF NOT FOUND THEN
            out_value := NULL;
            out_found := FALSE;
        END IF;
    END IF;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

-- Every live key of an instance.
CREATE OR REPLACE FUNCTION {{schema}}.get_kv_all_values(p_instance TEXT)
RETURNS TABLE(out_key TEXT, out_value TEXT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT d.key, d.value FROM {{schema}}.kv_delta d
    WHERE d.instance_id = p_instance AND d.value IS NOT NULL
    UNION ALL
    SELECT s.key, s.value FROM {{schema}}.kv_store s
    WHERE s.instance_id = p_instance
      AND NOT EXISTS (SELECT 1 FROM {{schema}}.kv_delta d
                      WHERE d.instance_id = p_instance AND d.key = s.key);
END;
$fn$ LANGUAGE plpgsql;
