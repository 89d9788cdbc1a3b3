-- duro 0014 claims an instance's turn with fewer statements. What a claim reads, locks and
-- returns is duro 0012's: every statement a plpgsql function runs costs the server an executor
-- start-up whether it touches a row or not, and claims are, after turn commits, most of the
-- server's work per turn.
--
-- Per instance, a batch fetch (duro_fetch_orchestration_items) went through two functions that
-- returned sets (duro 0012's wait for the one-key lock, then duro 0009's claim): eleven statements
-- for a turn whose history the caller holds, nine for a first turn. Now one function,
-- duro_claim_orchestration_turn, does both in six (seven when the held history is not
-- confirmed) and returns its row as a value, which the batch fetch reads without a query of its
-- own:
--
-- - locking the instance's messages and reading them back is one statement (the rows an UPDATE
--   returns are the rows the new lock token holds);
-- - which history the caller holds is found in the arrays it sent, without a query;
-- - the anchor event and the events after it come from one read of the history from the anchor
--   on; only when the anchor is not stored is the whole history read, as before.

DROP FUNCTION {{schema}}.duro_claim_orchestration_instance(
    TEXT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT[], BIGINT[], BIGINT[]);
DROP FUNCTION {{schema}}.duro_claim_orchestration_instance_without_wait(
    TEXT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT[], BIGINT[], BIGINT[]);

-- Claims p_instance_id's turn as duro 0012 did; out_lock_token is null when it claimed nothing.
CREATE FUNCTION {{schema}}.duro_claim_orchestration_turn(
    p_instance_id TEXT,
    p_now_ms BIGINT,
    p_lock_timeout_ms BIGINT,
    p_min_version_packed BIGINT,
    p_max_version_packed BIGINT,
    p_cached_instance_ids TEXT[],
    p_cached_execution_ids BIGINT[],
    p_cached_last_event_ids BIGINT[],
    OUT out_orchestration_name TEXT,
    OUT out_orchestration_version TEXT,
    OUT out_execution_id BIGINT,
    OUT out_history JSONB,
    OUT out_messages JSONB,
    OUT out_lock_token TEXT,
    OUT out_attempt_count INTEGER,
    OUT out_kv_snapshot JSONB,
    OUT out_history_after_event_id BIGINT,
    OUT out_history_anchor JSONB
) AS $fn$
DECLARE
    -- How long the claim waits for another statement's hold of the one-key lock (duro 0012).
    c_one_key_wait CONSTANT INTERVAL := interval '100 milliseconds';
    v_wait_ends TIMESTAMPTZ;
    v_now_ms BIGINT;
    v_now_ts TIMESTAMPTZ;
    v_lock_token TEXT;
    v_locked_until BIGINT;
    v_position INTEGER;
BEGIN
    -- The scoped key is only tried: another claim or ack of this instance in this schema may
    -- keep it longer than a lease (duroxide-pg#21). The one-key form, which duroxide-pg's acks
    -- hold in every schema, is waited for briefly.
    IF NOT pg_try_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(p_instance_id)) THEN
        RETURN;
    END IF;
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
    WITH taken AS (
        UPDATE {{schema}}.orchestrator_queue q
        SET lock_token = v_lock_token, locked_until = v_locked_until, attempt_count = q.attempt_count + 1
        WHERE q.instance_id = p_instance_id
          AND (q.visible_at <= v_now_ts OR q.visible_at <= q.created_at)
          AND (q.lock_token IS NULL OR q.locked_until <= v_now_ms)
        RETURNING q.id, q.work_item, q.attempt_count)
    SELECT COALESCE(jsonb_agg(t.work_item::JSONB ORDER BY t.id), '[]'::JSONB),
           COALESCE(max(t.attempt_count), 1)
    INTO out_messages, out_attempt_count
    FROM taken t;

    SELECT i.orchestration_name, COALESCE(i.orchestration_version, 'unknown'), i.current_execution_id
    INTO out_orchestration_name, out_orchestration_version, out_execution_id
    FROM {{schema}}.instances i
    WHERE i.instance_id = p_instance_id;

    IF FOUND THEN
        -- Events the caller holds are not sent again: only those after its last one, with the
        -- stored copy of that one, by which the caller tells that its copy is of this
        -- incarnation of the instance. If it is not stored, the caller's copy is of something
        -- else and the whole history goes.
        FOREACH v_position IN ARRAY COALESCE(array_positions(p_cached_instance_ids, p_instance_id), '{}') LOOP
            IF p_cached_execution_ids[v_position] = out_execution_id THEN
                out_history_after_event_id := p_cached_last_event_ids[v_position];
                EXIT;
            END IF;
        END LOOP;
        IF out_history_after_event_id IS NOT NULL THEN
            SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.event_id)
                                FILTER (WHERE h.event_id > out_history_after_event_id), '[]'::JSONB),
                   (array_agg(h.event_data) FILTER (WHERE h.event_id = out_history_after_event_id))[1]::JSONB
            INTO out_history, out_history_anchor
            FROM {{schema}}.history h
            WHERE h.instance_id = p_instance_id AND h.execution_id = out_execution_id
              AND h.event_id >= out_history_after_event_id;
            IF out_history_anchor IS NULL THEN
                out_history_after_event_id := NULL;
            END IF;
        END IF;
        IF out_history_after_event_id IS NULL THEN
            SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.event_id), '[]'::JSONB)
            INTO out_history
            FROM {{schema}}.history h
            WHERE h.instance_id = p_instance_id AND h.execution_id = out_execution_id;
        END IF;
    ELSE
        -- The first turn has no instance row: the starting message names the orchestration.
        SELECT COALESCE(jsonb_agg(h.event_data::JSONB ORDER BY h.execution_id, h.event_id), '[]'::JSONB)
        INTO out_history
        FROM {{schema}}.history h
        WHERE h.instance_id = p_instance_id;
        IF out_messages->0 ? 'StartOrchestration' THEN
            out_orchestration_name := out_messages->0->'StartOrchestration'->>'orchestration';
            out_orchestration_version := COALESCE(out_messages->0->'StartOrchestration'->>'version', 'unknown');
            out_execution_id := COALESCE((out_messages->0->'StartOrchestration'->>'execution_id')::BIGINT, 1);
        ELSIF out_messages->0 ? 'ContinueAsNew' THEN
            out_orchestration_name := out_messages->0->'ContinueAsNew'->>'orchestration';
            out_orchestration_version := COALESCE(out_messages->0->'ContinueAsNew'->>'version', 'unknown');
            out_execution_id := 1;
        ELSE
            out_orchestration_name := 'Unknown';
            out_orchestration_version := 'unknown';
            out_execution_id := 1;
        END IF;
    END IF;

    -- The instance's committed key/value state, as {key: {value, last_updated_at_ms}}.
    SELECT COALESCE(jsonb_object_agg(s.key, jsonb_build_object('value', s.value,
                                                               'last_updated_at_ms', s.last_updated_at_ms)),
                    '{}'::JSONB)
    INTO out_kv_snapshot
    FROM {{schema}}.kv_store s
    WHERE s.instance_id = p_instance_id;

    out_lock_token := v_lock_token;
END;
$fn$ LANGUAGE plpgsql;

-- As duro 0004's, claiming each candidate with duro_claim_orchestration_turn.
CREATE OR REPLACE FUNCTION {{schema}}.duro_fetch_orchestration_items(
    p_now_ms BIGINT,
    p_lock_timeout_ms BIGINT,
    p_min_version_packed BIGINT,
    p_max_version_packed BIGINT,
    p_cached_instance_ids TEXT[],
    p_cached_execution_ids BIGINT[],
    p_cached_last_event_ids BIGINT[],
    p_max_items INTEGER
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
    -- Busy instances examined before the call gives up, so a crowd of them costs a bounded
    -- amount of work (as 0025's fetch bounds its candidates).
    c_max_busy CONSTANT INTEGER := 50;
    -- Queue rows read per wanted instance: an instance may have several messages waiting.
    c_rows_per_item CONSTANT INTEGER := 4;
    v_window_rows INTEGER;
    v_window TEXT[];
    v_examined TEXT[] := '{}';
    v_instance_id TEXT;
    v_turn RECORD;
    v_claimed INTEGER := 0;
    v_busy INTEGER := 0;
    v_now_ms BIGINT;
    v_now_ts TIMESTAMPTZ;
BEGIN
    IF p_max_items IS NULL OR p_max_items < 1 THEN
        RAISE EXCEPTION 'duro_fetch_orchestration_items: p_max_items must be at least 1, got %',
            p_max_items;
    END IF;
    v_window_rows := p_max_items * c_rows_per_item;
    LOOP
        v_now_ms := p_now_ms + (extract(EPOCH FROM clock_timestamp() - statement_timestamp()) * 1000)::BIGINT;
        v_now_ts := to_timestamp(v_now_ms / 1000.0);
        v_window := ARRAY(
            SELECT q.instance_id
            FROM {{schema}}.orchestrator_queue q
            WHERE q.visible_at <= v_now_ts
              AND q.instance_id <> ALL (v_examined)
              AND NOT EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                              WHERE il.instance_id = q.instance_id AND il.locked_until > v_now_ms)
              -- A scalar subquery, not NOT EXISTS: inside this OR a generic plan hashed a NOT
              -- EXISTS and read every execution; this reads one instance and one execution by key.
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
            LIMIT v_window_rows);
        FOREACH v_instance_id IN ARRAY v_window LOOP
            -- Later rows of an instance already tried (claimed or busy) add nothing.
            CONTINUE WHEN v_instance_id = ANY (v_examined);
            v_examined := v_examined || v_instance_id;
            v_turn := {{schema}}.duro_claim_orchestration_turn(
                v_instance_id, p_now_ms, p_lock_timeout_ms, p_min_version_packed,
                p_max_version_packed, p_cached_instance_ids, p_cached_execution_ids,
                p_cached_last_event_ids);
            IF v_turn.out_lock_token IS NOT NULL THEN
                out_instance_id := v_instance_id;
                out_orchestration_name := v_turn.out_orchestration_name;
                out_orchestration_version := v_turn.out_orchestration_version;
                out_execution_id := v_turn.out_execution_id;
                out_history := v_turn.out_history;
                out_messages := v_turn.out_messages;
                out_lock_token := v_turn.out_lock_token;
                out_attempt_count := v_turn.out_attempt_count;
                out_kv_snapshot := v_turn.out_kv_snapshot;
                out_history_after_event_id := v_turn.out_history_after_event_id;
                out_history_anchor := v_turn.out_history_anchor;
                RETURN NEXT;
                v_claimed := v_claimed + 1;
                IF v_claimed = p_max_items THEN
                    RETURN;
                END IF;
            ELSE
                v_busy := v_busy + 1;
                IF v_busy = c_max_busy THEN
                    RETURN;
                END IF;
            END IF;
        END LOOP;
        -- A window that was not full held every candidate there was.
        EXIT WHEN cardinality(v_window) < v_window_rows;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;
