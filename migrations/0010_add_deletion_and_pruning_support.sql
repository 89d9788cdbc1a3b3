-- 0010 deletion and pruning: instances remember their parent (set from the first turn's metadata
-- and never changed), so a tree of instances can be listed, deleted as a unit without leaving
-- orphans, and old executions of a long-lived instance can be pruned.

ALTER TABLE {{schema}}.instances ADD COLUMN IF NOT EXISTS parent_instance_id TEXT;
CREATE INDEX IF NOT EXISTS idx_instances_parent ON {{schema}}.instances (parent_instance_id);

CREATE OR REPLACE FUNCTION {{schema}}.ack_orchestration_item(
    p_lock_token TEXT,
    p_execution_id BIGINT,
    p_history_delta JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB,
    p_cancelled_activities JSONB DEFAULT '[]'::JSONB
)
RETURNS VOID AS $fn$
DECLARE
    v_now_ms BIGINT := (extract(EPOCH FROM now()) * 1000)::BIGINT;
    v_now_ts TIMESTAMPTZ := to_timestamp(v_now_ms / 1000.0);
    v_instance_id TEXT;
    v_name TEXT := p_metadata->>'orchestration_name';
    v_version TEXT := p_metadata->>'orchestration_version';
    v_parent_id TEXT := p_metadata->>'parent_instance_id';
    v_status TEXT := p_metadata->>'status';
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > v_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    IF v_name IS NOT NULL AND v_version IS NOT NULL THEN
        INSERT INTO {{schema}}.instances AS i
            (instance_id, orchestration_name, orchestration_version, current_execution_id, parent_instance_id)
        VALUES (v_instance_id, v_name, v_version, p_execution_id, v_parent_id)
        ON CONFLICT (instance_id) DO UPDATE
        SET orchestration_name = EXCLUDED.orchestration_name,
            orchestration_version = EXCLUDED.orchestration_version,
            -- The parent is set once: a later turn never re-parents an instance.
            parent_instance_id = COALESCE(i.parent_instance_id, EXCLUDED.parent_instance_id),
            current_execution_id = GREATEST(i.current_execution_id, EXCLUDED.current_execution_id);
    ELSE
        UPDATE {{schema}}.instances
        SET current_execution_id = GREATEST(current_execution_id, p_execution_id)
        WHERE instance_id = v_instance_id;
    END IF;

    INSERT INTO {{schema}}.executions (instance_id, execution_id, status, started_at)
    VALUES (v_instance_id, p_execution_id, 'Running', v_now_ts)
    ON CONFLICT (instance_id, execution_id) DO NOTHING;

    INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data)
    SELECT v_instance_id, p_execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data'
    FROM jsonb_array_elements(COALESCE(p_history_delta, '[]'::JSONB)) AS e;

    IF v_status IS NOT NULL THEN
        UPDATE {{schema}}.executions
        SET status = v_status,
            output = p_metadata->>'output',
            completed_at = CASE WHEN v_status IN ('Completed', 'Failed') THEN v_now_ts END
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    DELETE FROM {{schema}}.worker_queue q
    USING jsonb_array_elements(COALESCE(p_cancelled_activities, '[]'::JSONB)) AS c
    WHERE q.instance_id = c->>'instance'
      AND q.execution_id = (c->>'execution_id')::BIGINT
      AND q.activity_id = (c->>'activity_id')::BIGINT;

    INSERT INTO {{schema}}.worker_queue (work_item, visible_at, created_at, instance_id, execution_id, activity_id)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT
    FROM jsonb_array_elements(COALESCE(p_worker_items, '[]'::JSONB)) WITH ORDINALITY AS t(w, n)
    ORDER BY n;

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

DROP FUNCTION IF EXISTS {{schema}}.get_instance_info(TEXT);
CREATE OR REPLACE FUNCTION {{schema}}.get_instance_info(p_instance_id TEXT)
RETURNS TABLE(
    instance_id TEXT,
    orchestration_name TEXT,
    orchestration_version TEXT,
    current_execution_id BIGINT,
    created_at TIMESTAMPTZ,
    updated_at TIMESTAMPTZ,
    status TEXT,
    output TEXT,
    parent_instance_id TEXT
) AS $fn$
BEGIN
    RETURN QUERY
    SELECT i.instance_id, i.orchestration_name, COALESCE(i.orchestration_version, 'unknown'),
           i.current_execution_id, i.created_at, i.updated_at, e.status, e.output,
           i.parent_instance_id
    FROM {{schema}}.instances i
    LEFT JOIN {{schema}}.executions e
      ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
    WHERE i.instance_id = p_instance_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.list_children(p_instance_id TEXT)
RETURNS TABLE(child_instance_id TEXT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT i.instance_id FROM {{schema}}.instances i
    WHERE i.parent_instance_id = p_instance_id
    ORDER BY i.created_at;
END;
$fn$ LANGUAGE plpgsql;

-- NULL for a root instance; an error for an unknown one.
CREATE OR REPLACE FUNCTION {{schema}}.get_parent_id(p_instance_id TEXT)
RETURNS TEXT AS $fn$
DECLARE
    v_parent_id TEXT;
BEGIN
    SELECT i.parent_instance_id INTO v_parent_id
    FROM {{schema}}.instances i
    WHERE i.instance_id = p_instance_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Instance not found: %', p_instance_id;
    END IF;
    RETURN v_parent_id;
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
    DELETE FROM {{schema}}.instances WHERE instance_id = ANY (p_instance_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    instances_deleted := v_count;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

-- Deletes old executions of one instance. The current execution and running ones always stay;
-- p_keep_last keeps the newest N executions (the current one counts), p_completed_before_ms
-- limits pruning to executions completed before that time.
CREATE OR REPLACE FUNCTION {{schema}}.prune_executions(
    p_instance_id TEXT,
    p_keep_last INTEGER DEFAULT NULL,
    p_completed_before_ms BIGINT DEFAULT NULL
)
RETURNS TABLE(instances_processed BIGINT, executions_deleted BIGINT, events_deleted BIGINT) AS $fn$
DECLARE
    v_current_execution_id BIGINT;
    v_doomed BIGINT[];
    v_count BIGINT;
BEGIN
    SELECT i.current_execution_id INTO v_current_execution_id
    FROM {{schema}}.instances i
    WHERE i.instance_id = p_instance_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Instance % not found', p_instance_id;
    END IF;

    SELECT COALESCE(array_agg(e.execution_id), '{}') INTO v_doomed
    FROM {{schema}}.executions e
    WHERE e.instance_id = p_instance_id
      AND e.execution_id <> v_current_execution_id
      AND e.status <> 'Running'
      AND (p_completed_before_ms IS NULL
           OR e.completed_at < to_timestamp(p_completed_before_ms / 1000.0))
      AND (p_keep_last IS NULL
           OR e.execution_id NOT IN (SELECT k.execution_id FROM {{schema}}.executions k
                                     WHERE k.instance_id = p_instance_id
                                     ORDER BY k.execution_id DESC
                                     LIMIT p_keep_last));

    instances_processed := 1;
    DELETE FROM {{schema}}.history
    WHERE instance_id = p_instance_id AND execution_id = ANY (v_doomed);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    events_deleted := v_count;
    DELETE FROM {{schema}}.executions
    WHERE instance_id = p_instance_id AND execution_id = ANY (v_doomed);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    executions_deleted := v_count;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;
