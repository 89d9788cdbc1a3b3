-- duro 0009 claims take the messages written to be visible at once: the claim of one instance
-- (duro_claim_orchestration_instance) locks every message of the instance that was written with
-- no delay, not only those visible by the caller's clock.
--
-- The caller's clock is read before the fetch is sent, and an ack stamps its messages with its
-- own clock. An ack that commits after that reading, as a fetch waits for a connection or runs
-- its candidates, can stamp a later time than the fetch's. When that ack continued the instance
-- as new, the claim saw the ContinuedAsNew history but not the successor's start written with
-- it, and handed the runtime messages with no start. The runtime then abandons them with a
-- backoff (duroxide's "CAN successor start not visible"), and messages that arrive during the
-- backoff overtake them: a sender's order is lost.
--
-- A message is written to be visible at once when visible_at is not later than created_at: acks,
-- activity completions and undelayed enqueues. Timers not yet due, delayed enqueues and delayed
-- abandons set a later visible_at, and keep waiting for the caller's clock to reach it. Choosing
-- which instances to claim is unchanged (by the caller's clock, from the visible_at index), so
-- an instance is claimed only for work that is due; the claim then takes what committed for it
-- since. Otherwise the function is duro 0006's.

CREATE OR REPLACE FUNCTION {{schema}}.duro_claim_orchestration_instance(
    p_instance_id TEXT,
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
    v_now_ms BIGINT;
    v_now_ts TIMESTAMPTZ;
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
    -- Another session holding the instance (a claim or an ack in flight) may keep it longer than
    -- a lease: skip it rather than wait (duroxide-pg#21).
    IF NOT pg_try_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(p_instance_id)) THEN
        RETURN;
    END IF;
    -- Where duroxide-pg's runner defined the duroxide track, its ack, renew and abandon take the
    -- one-key form instead (as 0025's fetch knows): trying it too keeps a claim out of an instance
    -- such an ack is committing.
    IF NOT pg_try_advisory_xact_lock(hashtext(p_instance_id)) THEN
        RETURN;
    END IF;

    -- The candidate was chosen from an earlier snapshot: with the advisory lock held, look again
    -- on the caller's clock advanced to now.
    v_now_ms := p_now_ms + (extract(EPOCH FROM clock_timestamp() - statement_timestamp()) * 1000)::BIGINT;
    v_now_ts := to_timestamp(v_now_ms / 1000.0);
    PERFORM 1
    FROM {{schema}}.orchestrator_queue q
    WHERE q.instance_id = p_instance_id
      AND q.visible_at <= v_now_ts
      AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                      WHERE il.instance_id = q.instance_id AND il.locked_until > v_now_ms)
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
        RETURN;
    END IF;

    -- The lease runs the whole lock timeout from the claim, on the later of the caller's
    -- advanced clock and the database's.
    v_lock_token := 'lock_' || gen_random_uuid()::TEXT;
    v_locked_until := GREATEST(v_now_ms, (extract(EPOCH FROM clock_timestamp()) * 1000)::BIGINT)
                      + p_lock_timeout_ms;
    INSERT INTO {{schema}}.instance_locks AS il (instance_id, lock_token, locked_until, locked_at)
    VALUES (p_instance_id, v_lock_token, v_locked_until, v_now_ms)
    ON CONFLICT (instance_id) DO UPDATE
    SET lock_token = EXCLUDED.lock_token,
        locked_until = EXCLUDED.locked_until,
        locked_at = EXCLUDED.locked_at
    WHERE il.locked_until <= v_now_ms;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    -- A message written to be visible at once (visible_at no later than created_at) is taken
    -- whatever the caller's clock says: its writer's clock may read later than ours.
    UPDATE {{schema}}.orchestrator_queue q
    SET lock_token = v_lock_token, locked_until = v_locked_until, attempt_count = q.attempt_count + 1
    WHERE q.instance_id = p_instance_id
      AND (q.visible_at <= v_now_ts OR q.visible_at <= q.created_at)
      AND (q.lock_token IS NULL OR q.locked_until <= v_now_ms);

    SELECT COALESCE(jsonb_agg(q.work_item::JSONB ORDER BY q.id), '[]'::JSONB),
           COALESCE(max(q.attempt_count), 1)
    INTO v_messages, v_attempt_count
    FROM {{schema}}.orchestrator_queue q
    WHERE q.lock_token = v_lock_token;

    SELECT i.orchestration_name, COALESCE(i.orchestration_version, 'unknown'), i.current_execution_id
    INTO v_name, v_version, v_execution_id
    FROM {{schema}}.instances i
    WHERE i.instance_id = p_instance_id;

    IF FOUND THEN
        -- Events the caller holds are not sent again: only those after its last one, with the
        -- stored copy of that one, by which the caller tells that its copy is of this
        -- incarnation of the instance. If it is not stored, the caller's copy is of something
        -- else and the whole history goes.
        SELECT c.last_event_id INTO v_after_event_id
        FROM unnest(p_cached_instance_ids, p_cached_execution_ids, p_cached_last_event_ids)
             AS c(instance_id, execution_id, last_event_id)
        WHERE c.instance_id = p_instance_id AND c.execution_id = v_execution_id
        LIMIT 1;
        IF v_after_event_id IS NOT NULL THEN
            SELECT h.event_data::JSONB INTO v_anchor
            FROM {{schema}}.history h
            WHERE h.instance_id = p_instance_id AND h.execution_id = v_execution_id
              AND h.event_id = v_after_event_id;
            IF NOT FOUND THEN
                v_after_event_id := NULL;
            END IF;
        END IF;
        -- Event ids start at 1, so after -1 means the whole history.
        SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.event_id), '[]'::JSONB)
        INTO v_history
        FROM {{schema}}.history h
        WHERE h.instance_id = p_instance_id AND h.execution_id = v_execution_id
          AND h.event_id > COALESCE(v_after_event_id, -1);
    ELSE
        -- The first turn has no instance row: the starting message names the orchestration.
        SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.execution_id, h.event_id), '[]'::JSONB)
        INTO v_history
        FROM {{schema}}.history h
        WHERE h.instance_id = p_instance_id;
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

    -- The instance's committed key/value state, as {key: {value, last_updated_at_ms}}.
    SELECT COALESCE(jsonb_object_agg(s.key, jsonb_build_object('value', s.value,
                                                               'last_updated_at_ms', s.last_updated_at_ms)),
                    '{}'::JSONB)
    INTO v_kv_snapshot
    FROM {{schema}}.kv_store s
    WHERE s.instance_id = p_instance_id;

    RETURN QUERY SELECT p_instance_id, v_name, v_version, v_execution_id, v_history, v_messages,
                        v_lock_token, v_attempt_count, v_kv_snapshot, v_after_event_id, v_anchor;
END;
$fn$ LANGUAGE plpgsql;
