-- duro 0012 a claim waits briefly for the one-key advisory lock of its instance instead of
-- skipping the instance at once (duro_claim_orchestration_instance).
--
-- duroxide-pg's ack, renew and abandon, and duro's own acks (duro 0005, 0008), hold
-- pg_advisory_xact_lock(hashtext(instance_id)): a key of the instance id alone, the same in every
-- schema of the database. Two schemas that use the same instance ids (tenants, or a blue and a
-- green deployment) then meet on it: while a worker of one schema acknowledged instance X, a
-- claim of X in the other schema failed its try, skipped X, and found nothing else to claim. X's
-- message had already announced itself, and the ack in the other schema notifies only that
-- schema, so the work waited for the next notification or the idle poll: seconds (the swarm
-- check's mixed fleet saw 2.2 s and 2.7 s).
--
-- Every holder of the key is a single statement (duro holds no transaction open across round
-- trips), so the claim now tries again every 2 ms for up to 100 ms; the scoped key is still only
-- tried, so two claims of one instance in one schema never wait for each other. A claim that
-- holds locks of instances it claimed earlier in the same batch may meet an ack that waits for
-- one of those: the bound, far below deadlock_timeout, ends that wait, and the claim skips X as
-- before. Otherwise the function is duro 0009's.

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
    -- How long the claim waits for another statement's hold of the one-key lock.
    c_one_key_wait CONSTANT INTERVAL := interval '100 milliseconds';
    v_wait_ends TIMESTAMPTZ;
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
    --
    -- That key is the instance id alone, so an ack of the same id in another schema of the
    -- database holds it too; that ack wakes nobody here, so skipping would leave this instance's
    -- work waiting for the next notification or poll. Every holder is one statement, so wait for
    -- it, briefly (a holder past the bound is skipped as before).
    IF NOT pg_try_advisory_xact_lock(hashtext(p_instance_id)) THEN
        v_wait_ends := clock_timestamp() + c_one_key_wait;
        LOOP
            PERFORM pg_sleep(0.002);
            EXIT WHEN pg_try_advisory_xact_lock(hashtext(p_instance_id));
            IF clock_timestamp() >= v_wait_ends THEN
                RETURN;
            END IF;
        END LOOP;
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
