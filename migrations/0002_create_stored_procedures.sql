-- 0002 stored procedures: every operation of the provider becomes one function call, each
-- created in the schema it serves with its tables schema-qualified, so a caller whose
-- search_path points elsewhere still reaches the right rows.
--
-- Queue columns that later migrations add (attempt_count in 0003) are not referenced yet: the
-- bodies here work against the tables as 0001 leaves them.

-- Drops every table and function duroxide and duro keep in this schema, without dropping the
-- schema itself (so it is safe on public). Test use only. Functions are found in the catalog by
-- name, so every signature any migration ever created goes.
CREATE OR REPLACE FUNCTION {{schema}}.cleanup_schema()
RETURNS VOID AS $fn$
DECLARE
    v_drop TEXT;
BEGIN
    DROP TABLE IF EXISTS
        {{schema}}.sessions, {{schema}}.kv_delta, {{schema}}.kv_store, {{schema}}.instances,
        {{schema}}.executions, {{schema}}.history, {{schema}}.orchestrator_queue,
        {{schema}}.worker_queue, {{schema}}.instance_locks, {{schema}}._duroxide_migrations,
        {{schema}}._duro_migrations
    CASCADE;

    FOR v_drop IN
        SELECT format('DROP FUNCTION IF EXISTS %I.%I(%s)', n.nspname, p.proname,
                      pg_catalog.pg_get_function_identity_arguments(p.oid))
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = '{{schema_name}}'
          AND p.proname = ANY (ARRAY[
              'cleanup_schema', 'list_instances', 'list_executions', 'latest_execution_id',
              'list_instances_by_status', 'get_instance_info', 'get_execution_info',
              'get_system_metrics', 'get_queue_depths', 'enqueue_worker_work', 'ack_worker',
              'renew_work_item_lock', 'fetch_work_item', 'abandon_work_item',
              'enqueue_orchestrator_work', 'fetch_orchestration_item', 'ack_orchestration_item',
              'abandon_orchestration_item', 'renew_orchestration_item_lock', 'fetch_history',
              'fetch_history_with_execution', 'append_history', 'enqueue_orchestration_work',
              'enqueue_completion', 'enqueue_message', 'ack_orchestration', 'list_children',
              'get_parent_id', 'delete_instances_atomic', 'prune_executions',
              'renew_session_lock', 'cleanup_orphaned_sessions', 'get_custom_status',
              'get_kv_value', 'get_kv_all_values', 'get_instance_stats',
              'duro_wakeup_channel', 'duro_notify_queue_insert', 'duro_notify_queue_release',
              'duro_notify_instance_release'
          ])
    LOOP
        EXECUTE v_drop;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;

-- ---------------------------------------------------------------------------------------------
-- Reads for the management API
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION {{schema}}.list_instances()
RETURNS TABLE(instance_id TEXT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT i.instance_id FROM {{schema}}.instances i ORDER BY i.created_at DESC;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.list_executions(p_instance_id TEXT)
RETURNS TABLE(execution_id BIGINT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT e.execution_id FROM {{schema}}.executions e
    WHERE e.instance_id = p_instance_id
    ORDER BY e.execution_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.latest_execution_id(p_instance_id TEXT)
RETURNS BIGINT AS $fn$
BEGIN
    RETURN (SELECT i.current_execution_id FROM {{schema}}.instances i
            WHERE i.instance_id = p_instance_id);
END;
$fn$ LANGUAGE plpgsql;

-- Status is the status of the instance's current execution.
CREATE OR REPLACE FUNCTION {{schema}}.list_instances_by_status(p_status TEXT)
RETURNS TABLE(instance_id TEXT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT i.instance_id
    FROM {{schema}}.instances i
    JOIN {{schema}}.executions e
      ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
    WHERE e.status = p_status
    ORDER BY i.created_at DESC;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.get_instance_info(p_instance_id TEXT)
RETURNS TABLE(
    instance_id TEXT,
    orchestration_name TEXT,
    orchestration_version TEXT,
    current_execution_id BIGINT,
    created_at TIMESTAMPTZ,
    updated_at TIMESTAMPTZ,
    status TEXT,
    output TEXT
) AS $fn$
BEGIN
    RETURN QUERY
    SELECT i.instance_id, i.orchestration_name, COALESCE(i.orchestration_version, 'unknown'),
           i.current_execution_id, i.created_at, i.updated_at, e.status, e.output
    FROM {{schema}}.instances i
    LEFT JOIN {{schema}}.executions e
      ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
    WHERE i.instance_id = p_instance_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.get_execution_info(p_instance_id TEXT, p_execution_id BIGINT)
RETURNS TABLE(
    execution_id BIGINT,
    status TEXT,
    output TEXT,
    started_at TIMESTAMPTZ,
    completed_at TIMESTAMPTZ,
    event_count BIGINT
) AS $fn$
BEGIN
    RETURN QUERY
    SELECT e.execution_id, e.status, e.output, e.started_at, e.completed_at,
           (SELECT count(*) FROM {{schema}}.history h
            WHERE h.instance_id = e.instance_id AND h.execution_id = e.execution_id)
    FROM {{schema}}.executions e
    WHERE e.instance_id = p_instance_id AND e.execution_id = p_execution_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.get_system_metrics()
RETURNS TABLE(
    total_instances BIGINT,
    total_executions BIGINT,
    running_instances BIGINT,
    completed_instances BIGINT,
    failed_instances BIGINT,
    total_events BIGINT
) AS $fn$
BEGIN
    RETURN QUERY
    WITH current_status AS (
        SELECT e.status
        FROM {{schema}}.instances i
        JOIN {{schema}}.executions e
          ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
    )
    SELECT (SELECT count(*) FROM {{schema}}.instances),
           (SELECT count(*) FROM {{schema}}.executions),
           (SELECT count(*) FROM current_status WHERE status = 'Running'),
           (SELECT count(*) FROM current_status WHERE status = 'Completed'),
           (SELECT count(*) FROM current_status WHERE status = 'Failed'),
           (SELECT count(*) FROM {{schema}}.history);
END;
$fn$ LANGUAGE plpgsql;

-- Rows a fetch could take at p_now_ms: visible and not held by a live lock.
CREATE OR REPLACE FUNCTION {{schema}}.get_queue_depths(p_now_ms BIGINT)
RETURNS TABLE(orchestrator_queue BIGINT, worker_queue BIGINT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT (SELECT count(*) FROM {{schema}}.orchestrator_queue q
            WHERE q.visible_at <= to_timestamp(p_now_ms / 1000.0)
              AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms)),
           (SELECT count(*) FROM {{schema}}.worker_queue q
            WHERE q.visible_at <= to_timestamp(p_now_ms / 1000.0)
              AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms));
END;
$fn$ LANGUAGE plpgsql;

-- ---------------------------------------------------------------------------------------------
-- Worker queue
-- ---------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION {{schema}}.enqueue_worker_work(p_work_item TEXT)
RETURNS VOID AS $fn$
BEGIN
    INSERT INTO {{schema}}.worker_queue (work_item, visible_at, created_at)
    VALUES (p_work_item, now(), now());
END;
$fn$ LANGUAGE plpgsql;

-- Completes an activity: removes its row and, unless it was cancelled (no completion), hands the
-- completion to the orchestrator queue in the same transaction.
CREATE OR REPLACE FUNCTION {{schema}}.ack_worker(
    p_lock_token TEXT,
    p_instance_id TEXT DEFAULT NULL,
    p_completion_json TEXT DEFAULT NULL
)
RETURNS VOID AS $fn$
BEGIN
    DELETE FROM {{schema}}.worker_queue WHERE lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Worker queue item not found or already processed';
    END IF;
    IF p_completion_json IS NOT NULL THEN
        INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
        VALUES (p_instance_id, p_completion_json, now(), now());
    END IF;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.renew_work_item_lock(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_extend_secs BIGINT
)
RETURNS VOID AS $fn$
BEGIN
    UPDATE {{schema}}.worker_queue
    SET locked_until = p_now_ms + p_extend_secs * 1000
    WHERE lock_token = p_lock_token AND locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already acked';
    END IF;
END;
$fn$ LANGUAGE plpgsql;

-- Claims the oldest available activity. The queue has no attempt counter yet (0003), so every
-- claim reports attempt 1.
CREATE OR REPLACE FUNCTION {{schema}}.fetch_work_item(p_now_ms BIGINT, p_lock_timeout_ms BIGINT)
RETURNS TABLE(out_work_item TEXT, out_lock_token TEXT, out_attempt_count INTEGER) AS $fn$
DECLARE
    v_id BIGINT;
BEGIN
    SELECT q.id INTO v_id
    FROM {{schema}}.worker_queue q
    WHERE q.visible_at <= to_timestamp(p_now_ms / 1000.0)
      AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms)
    ORDER BY q.id
    LIMIT 1
    FOR UPDATE OF q SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    out_lock_token := 'lock_' || gen_random_uuid()::TEXT;
    UPDATE {{schema}}.worker_queue
    SET lock_token = out_lock_token, locked_until = p_now_ms + p_lock_timeout_ms
    WHERE id = v_id
    RETURNING work_item, 1 INTO out_work_item, out_attempt_count;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.abandon_work_item(
    p_lock_token TEXT,
    p_delay_ms BIGINT DEFAULT NULL,
    p_ignore_attempt BOOLEAN DEFAULT FALSE
)
RETURNS VOID AS $fn$
BEGIN
    UPDATE {{schema}}.worker_queue
    SET lock_token = NULL,
        locked_until = NULL,
        visible_at = now() + make_interval(secs => GREATEST(COALESCE(p_delay_ms, 0), 0) / 1000.0)
    WHERE lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token or already acked';
    END IF;
END;
$fn$ LANGUAGE plpgsql;

-- ---------------------------------------------------------------------------------------------
-- Orchestrator queue
-- ---------------------------------------------------------------------------------------------

-- The name, version and execution arguments are accepted for the caller's convenience and
-- ignored: an instance row is created only by ack_orchestration_item, from the turn's metadata.
CREATE OR REPLACE FUNCTION {{schema}}.enqueue_orchestrator_work(
    p_instance_id TEXT,
    p_work_item TEXT,
    p_visible_at TIMESTAMPTZ,
    p_orchestration_name TEXT DEFAULT NULL,
    p_orchestration_version TEXT DEFAULT NULL,
    p_execution_id BIGINT DEFAULT NULL
)
RETURNS VOID AS $fn$
BEGIN
    INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    VALUES (p_instance_id, p_work_item, p_visible_at, now());
END;
$fn$ LANGUAGE plpgsql;

-- Claims one instance with work: picks the instance of the oldest visible message whose instance
-- has no live lock, serializes with other fetchers of that instance through an advisory lock,
-- re-checks, writes the instance lock, marks its visible messages and returns them with the
-- current execution's history. The advisory lock is taken before any row lock so two fetchers of
-- one instance cannot deadlock on the instance_locks upsert.
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
    SET lock_token = v_lock_token, locked_until = v_locked_until
    WHERE q.instance_id = v_instance_id
      AND q.visible_at <= v_now_ts
      AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms);

    SELECT COALESCE(jsonb_agg(q.work_item::JSONB ORDER BY q.id), '[]'::JSONB)
    INTO v_messages
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
                        v_lock_token, 1;
END;
$fn$ LANGUAGE plpgsql;

-- Commits one orchestration turn atomically: instance and execution rows, the history delta, the
-- new activity and orchestrator messages, then releases the messages and the instance lock.
-- The lease is checked against the database clock here; 0012 moves it to the caller's clock.
CREATE OR REPLACE FUNCTION {{schema}}.ack_orchestration_item(
    p_lock_token TEXT,
    p_execution_id BIGINT,
    p_history_delta JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB
)
RETURNS VOID AS $fn$
DECLARE
    v_now_ms BIGINT := (extract(EPOCH FROM now()) * 1000)::BIGINT;
    v_instance_id TEXT;
    v_name TEXT := p_metadata->>'orchestration_name';
    v_version TEXT := p_metadata->>'orchestration_version';
    v_status TEXT := p_metadata->>'status';
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > v_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    IF v_name IS NOT NULL AND v_version IS NOT NULL THEN
        INSERT INTO {{schema}}.instances AS i (instance_id, orchestration_name, orchestration_version, current_execution_id)
        VALUES (v_instance_id, v_name, v_version, p_execution_id)
        ON CONFLICT (instance_id) DO UPDATE
        SET orchestration_name = EXCLUDED.orchestration_name,
            orchestration_version = EXCLUDED.orchestration_version,
            current_execution_id = GREATEST(i.current_execution_id, EXCLUDED.current_execution_id);
    ELSE
        UPDATE {{schema}}.instances
        SET current_execution_id = GREATEST(current_execution_id, p_execution_id)
        WHERE instance_id = v_instance_id;
    END IF;

    INSERT INTO {{schema}}.executions (instance_id, execution_id, status, started_at)
    VALUES (v_instance_id, p_execution_id, 'Running', now())
    ON CONFLICT (instance_id, execution_id) DO NOTHING;

    INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data)
    SELECT v_instance_id, p_execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data'
    FROM jsonb_array_elements(COALESCE(p_history_delta, '[]'::JSONB)) AS e;

    IF v_status IS NOT NULL THEN
        UPDATE {{schema}}.executions
        SET status = v_status,
            output = p_metadata->>'output',
            completed_at = CASE WHEN v_status IN ('Completed', 'Failed') THEN now() END
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    INSERT INTO {{schema}}.worker_queue (work_item, created_at)
    SELECT w::TEXT, now()
    FROM jsonb_array_elements(COALESCE(p_worker_items, '[]'::JSONB)) WITH ORDINALITY AS t(w, n)
    ORDER BY n;

    -- Each message goes to the instance its variant names (a child's completion to its parent);
    -- a timer becomes visible when it fires.
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
                ELSE now() END,
           now()
    FROM jsonb_array_elements(COALESCE(p_orchestrator_items, '[]'::JSONB)) WITH ORDINALITY AS t(o, n)
    ORDER BY n;

    DELETE FROM {{schema}}.orchestrator_queue WHERE lock_token = p_lock_token;
    DELETE FROM {{schema}}.instance_locks
    WHERE instance_id = v_instance_id AND lock_token = p_lock_token;
END;
$fn$ LANGUAGE plpgsql;

-- Gives a claimed instance back without committing a turn. Without a delay the messages keep
-- their visible_at, so they are fetchable again at once and in their original order.
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
                          ELSE visible_at END
    WHERE lock_token = p_lock_token;

    DELETE FROM {{schema}}.instance_locks WHERE lock_token = p_lock_token;
    RETURN v_instance_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.renew_orchestration_item_lock(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_extend_secs BIGINT
)
RETURNS VOID AS $fn$
DECLARE
    v_locked_until BIGINT := p_now_ms + p_extend_secs * 1000;
BEGIN
    UPDATE {{schema}}.instance_locks
    SET locked_until = v_locked_until
    WHERE lock_token = p_lock_token AND locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already released';
    END IF;
    UPDATE {{schema}}.orchestrator_queue
    SET locked_until = v_locked_until
    WHERE lock_token = p_lock_token;
END;
$fn$ LANGUAGE plpgsql;

-- ---------------------------------------------------------------------------------------------
-- History
-- ---------------------------------------------------------------------------------------------

-- History of the latest execution (the highest execution id recorded, 1 when there is none).
CREATE OR REPLACE FUNCTION {{schema}}.fetch_history(p_instance_id TEXT)
RETURNS TABLE(out_event_data TEXT) AS $fn$
DECLARE
    v_execution_id BIGINT;
BEGIN
    SELECT COALESCE(max(e.execution_id), 1) INTO v_execution_id
    FROM {{schema}}.executions e
    WHERE e.instance_id = p_instance_id;

    RETURN QUERY
    SELECT h.event_data FROM {{schema}}.history h
    WHERE h.instance_id = p_instance_id AND h.execution_id = v_execution_id
    ORDER BY h.event_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.fetch_history_with_execution(p_instance_id TEXT, p_execution_id BIGINT)
RETURNS TABLE(out_event_data TEXT) AS $fn$
BEGIN
    RETURN QUERY
    SELECT h.event_data FROM {{schema}}.history h
    WHERE h.instance_id = p_instance_id AND h.execution_id = p_execution_id
    ORDER BY h.event_id;
END;
$fn$ LANGUAGE plpgsql;

-- Appends events, skipping event ids already stored; rejects ids below 1.
CREATE OR REPLACE FUNCTION {{schema}}.append_history(p_instance_id TEXT, p_execution_id BIGINT, p_events JSONB)
RETURNS VOID AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(p_events, '[]'::JSONB)) AS e
               WHERE COALESCE((e->>'event_id')::BIGINT, 0) <= 0) THEN
        RAISE EXCEPTION 'Invalid event_id in append_history';
    END IF;

    INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data)
    SELECT p_instance_id, p_execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data'
    FROM jsonb_array_elements(COALESCE(p_events, '[]'::JSONB)) AS e
    ON CONFLICT (instance_id, execution_id, event_id) DO NOTHING;
END;
$fn$ LANGUAGE plpgsql;
