-- duro 0002 history tails: duro_fetch_orchestration_item claims a turn exactly as
-- fetch_orchestration_item of duroxide version 0026 does, and takes the executions whose history
-- the caller already holds, as three arrays of equal length (instance id, execution id, id of the
-- last event held). For a claimed execution the caller holds, it returns only the events after
-- that one, with out_history_after_event_id set to it and out_history_anchor holding the stored
-- event itself; for any other, the whole history, with both columns NULL. A worker that keeps an
-- instance thus reads each event once instead of the whole history every turn.
--
-- The claim below is 0026's, statement for statement: the provider calls this function only on a
-- schema whose duroxide track is at 26, and a later duroxide migration that changes the claim
-- needs a duro file that changes it here too.

CREATE OR REPLACE FUNCTION {{schema}}.duro_fetch_orchestration_item(
    p_now_ms BIGINT,
    p_lock_timeout_ms BIGINT,
    p_min_version_packed BIGINT,
    p_max_version_packed BIGINT,
    p_cached_instance_ids TEXT[],
    p_cached_execution_ids BIGINT[],
    p_cached_last_event_ids BIGINT[]
)
RETURNS TABLE(
    out_instance_id TEXT,
    out_orchestration_name TEXT,
    out_orchestration_version TEXT,
    out_execution_id BIGINT,
    out_history JSONB,
    out_messages JSONB,
    out_lock_token TEXT,
    out_attempt_count INTEGER,
    out_kv_snapshot JSONB,
    out_history_after_event_id BIGINT,
    out_history_anchor JSONB
) AS $fn$
DECLARE
    -- Upper bound on instances examined per call, so a crowd of busy instances costs a bounded
    -- amount of work before the call returns empty.
    c_max_candidates CONSTANT INTEGER := 50;
    v_round INTEGER;
    v_skipped TEXT[] := '{}';
    v_now_ms BIGINT;
    v_now_ts TIMESTAMPTZ;
    v_instance_id TEXT;
    v_lock_token TEXT;
    v_locked_until BIGINT;
    v_name TEXT;
    v_version TEXT;
    v_execution_id BIGINT;
    v_history JSONB;
    v_messages JSONB;
    v_attempt_count INTEGER;
    v_kv_snapshot JSONB;
    v_after_event_id BIGINT;
    v_anchor JSONB;
BEGIN
    FOR v_round IN 1..c_max_candidates LOOP
        -- The caller's clock, advanced by the time spent in this call so far; read afresh for every
        -- liveness check, because the rounds before may have taken a while.
        v_now_ms := p_now_ms + (extract(EPOCH FROM clock_timestamp() - statement_timestamp()) * 1000)::BIGINT;
        v_now_ts := to_timestamp(v_now_ms / 1000.0);

        SELECT q.instance_id INTO v_instance_id
        FROM {{schema}}.orchestrator_queue q
        WHERE q.visible_at <= v_now_ts
          AND q.instance_id <> ALL (v_skipped)
          AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                          WHERE il.instance_id = q.instance_id AND il.locked_until > v_now_ms)
          -- A scalar subquery, not NOT EXISTS: inside this OR a generic plan hashed the NOT EXISTS,
          -- reading every execution per call; this reads one instance and one execution by key.
          AND (p_min_version_packed IS NULL OR (
                SELECT (e.duroxide_version_major * 1000000 + e.duroxide_version_minor * 1000
                        + e.duroxide_version_patch
                        BETWEEN p_min_version_packed AND p_max_version_packed) IS NOT TRUE
                FROM {{schema}}.instances i
                JOIN {{schema}}.executions e
                  ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
                WHERE i.instance_id = q.instance_id
                  AND e.duroxide_version_major IS NOT NULL) IS NOT TRUE)
        ORDER BY q.visible_at, q.id
        LIMIT 1;
        IF NOT FOUND THEN
            RETURN;
        END IF;

        -- Never wait for another session's lock on the instance: it may hold it for longer than the
        -- lease (the convoy of duroxide-pg#21). A busy instance is skipped for this call.
        IF NOT pg_try_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(v_instance_id)) THEN
            v_skipped := v_skipped || v_instance_id;
            CONTINUE;
        END IF;

        v_now_ms := p_now_ms + (extract(EPOCH FROM clock_timestamp() - statement_timestamp()) * 1000)::BIGINT;
        v_now_ts := to_timestamp(v_now_ms / 1000.0);
        PERFORM 1
        FROM {{schema}}.orchestrator_queue q
        WHERE q.instance_id = v_instance_id
          AND q.visible_at <= v_now_ts
          AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                          WHERE il.instance_id = q.instance_id AND il.locked_until > v_now_ms)
          -- A scalar subquery, not NOT EXISTS: inside this OR a generic plan hashed the NOT EXISTS,
          -- reading every execution per call; this reads one instance and one execution by key.
          AND (p_min_version_packed IS NULL OR (
                SELECT (e.duroxide_version_major * 1000000 + e.duroxide_version_minor * 1000
                        + e.duroxide_version_patch
                        BETWEEN p_min_version_packed AND p_max_version_packed) IS NOT TRUE
                FROM {{schema}}.instances i
                JOIN {{schema}}.executions e
                  ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
                WHERE i.instance_id = q.instance_id
                  AND e.duroxide_version_major IS NOT NULL) IS NOT TRUE)
        FOR UPDATE OF q SKIP LOCKED;
        IF NOT FOUND THEN
            v_skipped := v_skipped || v_instance_id;
            CONTINUE;
        END IF;

        -- The lease starts at the claim: the caller's clock advanced by the time spent here, or the
        -- database clock when that is later (a p_now_ms that was stale on arrival). Either way the
        -- returned lease has the whole lock timeout ahead of it.
        v_lock_token := 'lock_' || gen_random_uuid()::TEXT;
        v_locked_until := GREATEST(v_now_ms, (extract(EPOCH FROM clock_timestamp()) * 1000)::BIGINT)
                          + p_lock_timeout_ms;
        INSERT INTO {{schema}}.instance_locks AS il (instance_id, lock_token, locked_until, locked_at)
        VALUES (v_instance_id, v_lock_token, v_locked_until, v_now_ms)
        ON CONFLICT (instance_id) DO UPDATE
        SET lock_token = EXCLUDED.lock_token,
            locked_until = EXCLUDED.locked_until,
            locked_at = EXCLUDED.locked_at
        WHERE il.locked_until <= v_now_ms;
        IF NOT FOUND THEN
            v_skipped := v_skipped || v_instance_id;
            CONTINUE;
        END IF;

        UPDATE {{schema}}.orchestrator_queue q
        SET lock_token = v_lock_token, locked_until = v_locked_until, attempt_count = q.attempt_count + 1
        WHERE q.instance_id = v_instance_id
          AND q.visible_at <= v_now_ts
          AND (q.lock_token IS NULL OR q.locked_until <= v_now_ms);

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
            -- The caller already holds this execution's events up to v_after_event_id: send only
            -- the later ones, and the stored event at v_after_event_id, by which the caller checks
            -- that its copy is of this incarnation of the instance. Without that event the
            -- caller's copy describes something else, and the whole history goes.
            SELECT c.last_event_id INTO v_after_event_id
            FROM unnest(p_cached_instance_ids, p_cached_execution_ids, p_cached_last_event_ids)
                 AS c(instance_id, execution_id, last_event_id)
            WHERE c.instance_id = v_instance_id AND c.execution_id = v_execution_id
            LIMIT 1;
            IF v_after_event_id IS NOT NULL THEN
                SELECT h.event_data::JSONB INTO v_anchor
                FROM {{schema}}.history h
                WHERE h.instance_id = v_instance_id AND h.execution_id = v_execution_id
                  AND h.event_id = v_after_event_id;
                IF NOT FOUND THEN
                    v_after_event_id := NULL;
                END IF;
            END IF;
            -- Event ids are unsigned: after -1 is the whole history.
            SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.event_id), '[]'::JSONB)
            INTO v_history
            FROM {{schema}}.history h
            WHERE h.instance_id = v_instance_id AND h.execution_id = v_execution_id
              AND h.event_id > COALESCE(v_after_event_id, -1);
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

        -- Committed key/value state of the instance, as {key: {value, last_updated_at_ms}}.
        SELECT COALESCE(jsonb_object_agg(s.key, jsonb_build_object('value', s.value,
                                                                   'last_updated_at_ms', s.last_updated_at_ms)),
                        '{}'::JSONB)
        INTO v_kv_snapshot
        FROM {{schema}}.kv_store s
        WHERE s.instance_id = v_instance_id;

        RETURN QUERY SELECT v_instance_id, v_name, v_version, v_execution_id, v_history, v_messages,
                            v_lock_token, v_attempt_count, v_kv_snapshot, v_after_event_id, v_anchor;
        RETURN;
    END LOOP;
    -- Every candidate examined was busy; the caller polls again.
END;
$fn$ LANGUAGE plpgsql;

-- cleanup_schema (test use only) as 0002 defines it, and also every function of the duro track,
-- found by its prefix, so the duro files after this one need not redefine it again.
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
          AND (p.proname LIKE 'duro\_%' OR p.proname = ANY (ARRAY[
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
              'get_kv_value', 'get_kv_all_values', 'get_instance_stats'
          ]))
    LOOP
        EXECUTE v_drop;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;
