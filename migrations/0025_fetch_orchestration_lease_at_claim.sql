-- 0025 a fetched lease is never already expired (duroxide-pg#21, duroxide#46).
--
-- Before, fetch_orchestration_item wrote the lease as p_now_ms + p_lock_timeout_ms, with
-- p_now_ms read by the caller before its connection-pool wait and before the call's blocking
-- wait for the instance's advisory lock. Sixteen dispatchers queued behind one busy instance got
-- leases that had expired before they were handed out; every ack then failed with
-- 'Invalid lock token', the poison ack at max_attempts included, and the message went round for
-- as long as the contention lasted.
--
-- The fetch now
--   * computes the lease when it claims the instance, from the later of the caller's clock
--     advanced by the time spent in the call and the database clock, so a returned lease has
--     the whole lock timeout ahead of it;
--   * never waits for another session's lock on an instance: it tries the advisory lock, skips
--     an instance that is busy, and moves to the next candidate, examining at most 50 per call;
--   * judges visibility and lock liveness on the caller's clock advanced to the moment of each
--     check;
--   * takes the advisory lock under a key of its own schema, (hashtext(schema),
--     hashtext(instance_id)), so two schemas with the same instance ids never contend. 0026 makes
--     ack, renew and abandon take the same key; see README.md for the rolling-upgrade notes.
-- Signature and result shape are unchanged.

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
    out_attempt_count INTEGER,
    out_kv_snapshot JSONB
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

        -- duroxide-pg's own 0026 (applied by the Rust runner over this file) makes ack and renew
        -- take pg_advisory_xact_lock(hashtext(instance_id)). Trying that key too keeps a fetch from
        -- taking over an instance such an ack is committing. Nothing in a schema migrated by duro
        -- holds it, so here it never makes a fetch skip.
        IF NOT pg_try_advisory_xact_lock(hashtext(v_instance_id)) THEN
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

        -- Committed key/value state of the instance, as {key: {value, last_updated_at_ms}}.
        SELECT COALESCE(jsonb_object_agg(s.key, jsonb_build_object('value', s.value,
                                                                   'last_updated_at_ms', s.last_updated_at_ms)),
                        '{}'::JSONB)
        INTO v_kv_snapshot
        FROM {{schema}}.kv_store s
        WHERE s.instance_id = v_instance_id;

        RETURN QUERY SELECT v_instance_id, v_name, v_version, v_execution_id, v_history, v_messages,
                            v_lock_token, v_attempt_count, v_kv_snapshot;
        RETURN;
    END LOOP;
    -- Every candidate examined was busy; the caller polls again.
END;
$fn$ LANGUAGE plpgsql;
