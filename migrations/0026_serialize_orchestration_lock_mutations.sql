-- 0026 lock mutations serialize with fetch, as in duroxide-pg 0.1.38: acknowledge, renew and
-- abandon take the instance's advisory lock (the schema-scoped key of 0025) before they touch a
-- row, and check their token again after the wait.
--
--   * ack_orchestration_item: a fetch that judged the lease expired (a caller whose clock runs
--     ahead, a stalled ack) could replace the token between the ack's check and its commit; the
--     ack then committed its history while its final deletes matched nothing, and the processed
--     messages were delivered again. With the lock held no fetch can take the instance over, and
--     the ack fails if its instance lock is gone at the end.
--   * renew_orchestration_item_lock: reads the clock after the wait (the 0025 rule), fails when
--     the lease expired meanwhile, never moves a deadline earlier, and updates the queue rows
--     before the instance lock, the order ack and abandon use, so it cannot deadlock with them.
--   * abandon_orchestration_item: the same lock and re-check.
--   * fetch_orchestration_item is redefined with the body of 0025 minus its second, unscoped
--     try-lock: whichever runner applied 0025, after this file every procedure uses one key.
--   * a unique index on instance_locks(lock_token), since ack, renew and abandon find the
--     instance by its token, and a token names exactly one instance.

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

CREATE OR REPLACE FUNCTION {{schema}}.renew_orchestration_item_lock(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_extend_secs BIGINT
)
RETURNS VOID AS $fn$
DECLARE
    v_instance_id TEXT;
    v_now_ms BIGINT;
    v_locked_until BIGINT;
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already released';
    END IF;

    PERFORM pg_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(v_instance_id));

    -- p_now_ms was read before the wait; the lease is judged and extended from now.
    v_now_ms := GREATEST(
        p_now_ms + (extract(EPOCH FROM clock_timestamp() - statement_timestamp()) * 1000)::BIGINT,
        (extract(EPOCH FROM clock_timestamp()) * 1000)::BIGINT);
    SELECT GREATEST(il.locked_until, v_now_ms + p_extend_secs * 1000) INTO v_locked_until
    FROM {{schema}}.instance_locks il
    WHERE il.instance_id = v_instance_id
      AND il.lock_token = p_lock_token
      AND il.locked_until > v_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already released';
    END IF;

    UPDATE {{schema}}.orchestrator_queue SET locked_until = v_locked_until
    WHERE lock_token = p_lock_token;
    UPDATE {{schema}}.instance_locks SET locked_until = v_locked_until
    WHERE instance_id = v_instance_id AND lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already released';
    END IF;
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
    v_mutation JSONB;
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    -- The instance's advisory lock, the key fetch, renew and abandon take: while it is held no
    -- fetch can take the instance over, so the token is checked again after the wait and the
    -- turn commits only while it still owns the instance.
    PERFORM pg_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(v_instance_id));
    PERFORM 1 FROM {{schema}}.instance_locks il
    WHERE il.instance_id = v_instance_id AND il.lock_token = p_lock_token;
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
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.abandon_orchestration_item(
    p_lock_token TEXT,
    p_now_ms BIGINT,
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

    PERFORM pg_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(v_instance_id));
    PERFORM 1 FROM {{schema}}.instance_locks il
    WHERE il.instance_id = v_instance_id AND il.lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    UPDATE {{schema}}.orchestrator_queue
    SET lock_token = NULL,
        locked_until = NULL,
        visible_at = CASE WHEN p_delay_ms > 0 THEN to_timestamp((p_now_ms + p_delay_ms) / 1000.0)
                          ELSE visible_at END,
        attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                             ELSE attempt_count END
    WHERE lock_token = p_lock_token;

    DELETE FROM {{schema}}.instance_locks
    WHERE instance_id = v_instance_id AND lock_token = p_lock_token;
    RETURN v_instance_id;
END;
$fn$ LANGUAGE plpgsql;

CREATE UNIQUE INDEX IF NOT EXISTS idx_instance_locks_lock_token ON {{schema}}.instance_locks (lock_token);
