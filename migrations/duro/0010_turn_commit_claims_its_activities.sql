-- duro 0010 lets a batch ack hand the activities its turns schedule to the committing runtime.
--
-- A fan-out's turn inserted its activities into worker_queue unlocked; the insert woke every
-- listening worker, and one of them claimed the rows with a statement of its own, which locked
-- each row and wrote it a second time (a new version, with an entry in every one of the table's
-- indexes), all on the orchestration's critical path. When the runtime that ran the turn has idle
-- worker capacity, nothing is gained by offering the activities to others first. Here the caller
-- may name, for each activity of each turn, a lock token of its own making: the row is then
-- written claimed, as fetch_work_item would leave it (that lock token, a lease of
-- p_activity_lease_ms from p_now_ms, one attempt counted), and the caller runs it. Rows without a
-- token are written as before. A claimed row whose lease lapses is fetched again as any other.
--
-- duro_ack_orchestration_items_claiming returns, besides each turn's outcome, whether the turn's
-- activities were written as asked: only the merged path (duro 0008) writes lock tokens; a batch
-- that goes turn by turn leaves every activity unclaimed, to be fetched as usual.
--
-- Only unclaimed rows wake workers now: an insert of claimed rows alone notifies nobody.

CREATE OR REPLACE FUNCTION {{schema}}.duro_notify_queue_insert()
RETURNS TRIGGER AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted_rows r
               WHERE r.lock_token IS NULL AND r.visible_at <= now() + INTERVAL '1 second') THEN
        PERFORM pg_notify({{schema}}.duro_wakeup_channel(TG_TABLE_SCHEMA,
                              CASE TG_TABLE_NAME WHEN 'orchestrator_queue' THEN 'orchestrator' ELSE 'worker' END),
                          '');
    END IF;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;

-- Replaced by the version below, which takes the activities' lock tokens; duro 0008's
-- duro_ack_orchestration_items, its only caller, is replaced further down.
DROP FUNCTION IF EXISTS {{schema}}.duro_ack_orchestration_turns_together(
    TEXT[], BIGINT, BIGINT[], JSONB, JSONB, JSONB, JSONB, JSONB);

-- As duro 0008's, but p_activity_lock_tokens holds, for each turn, one lock token or null per
-- item of its p_worker_items (or null for none), and a row with a token is written claimed.
CREATE OR REPLACE FUNCTION {{schema}}.duro_ack_orchestration_turns_together(
    p_lock_tokens TEXT[],
    p_now_ms BIGINT,
    p_execution_ids BIGINT[],
    p_history_deltas JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB,
    p_cancelled_activities JSONB,
    p_activity_lock_tokens JSONB,
    p_activity_lease_ms BIGINT
)
RETURNS BOOLEAN AS $fn$
DECLARE
    v_count INTEGER := cardinality(p_lock_tokens);
    v_now_ts TIMESTAMPTZ := to_timestamp(p_now_ms / 1000.0);
    v_instance_ids TEXT[];
    v_released INTEGER;
BEGIN
    v_instance_ids := ARRAY(
        SELECT il.instance_id
        FROM unnest(p_lock_tokens) WITH ORDINALITY AS t(lock_token, n)
        JOIN {{schema}}.instance_locks il
          ON il.lock_token = t.lock_token AND il.locked_until > p_now_ms
        ORDER BY t.n);
    IF cardinality(v_instance_ids) <> v_count THEN
        RETURN FALSE;
    END IF;

    IF EXISTS (
        SELECT 1
        FROM unnest(v_instance_ids) WITH ORDINALITY AS t(instance_id, n)
        WHERE jsonb_array_length(COALESCE(p_metadata->(t.n::INTEGER - 1)->'kv_mutations', '[]'::JSONB)) > 0
           OR EXISTS (SELECT 1
                      FROM jsonb_array_elements(COALESCE(p_worker_items->(t.n::INTEGER - 1), '[]'::JSONB)) AS w
                      WHERE w->'ActivityExecute'->>'instance' IS DISTINCT FROM t.instance_id)
           OR EXISTS (SELECT 1
                      FROM jsonb_array_elements(COALESCE(p_cancelled_activities->(t.n::INTEGER - 1), '[]'::JSONB)) AS c
                      WHERE c->>'instance' IS DISTINCT FROM t.instance_id)) THEN
        RETURN FALSE;
    END IF;

    INSERT INTO {{schema}}.instances AS i
        (instance_id, orchestration_name, orchestration_version, current_execution_id,
         parent_instance_id, created_at, updated_at)
    SELECT t.instance_id, m->>'orchestration_name', m->>'orchestration_version', t.execution_id,
           m->>'parent_instance_id', v_now_ts, v_now_ts
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
    WHERE m->>'orchestration_name' IS NOT NULL AND m->>'orchestration_version' IS NOT NULL
    ORDER BY t.n
    ON CONFLICT (instance_id) DO UPDATE
    SET orchestration_name = EXCLUDED.orchestration_name,
        orchestration_version = EXCLUDED.orchestration_version,
        parent_instance_id = COALESCE(i.parent_instance_id, EXCLUDED.parent_instance_id),
        current_execution_id = GREATEST(i.current_execution_id, EXCLUDED.current_execution_id),
        updated_at = EXCLUDED.updated_at;

    UPDATE {{schema}}.instances i
    SET current_execution_id = GREATEST(i.current_execution_id, t.execution_id),
        updated_at = v_now_ts
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    WHERE i.instance_id = t.instance_id
      AND (p_metadata->(t.n::INTEGER - 1)->>'orchestration_name' IS NULL
           OR p_metadata->(t.n::INTEGER - 1)->>'orchestration_version' IS NULL);

    INSERT INTO {{schema}}.executions (instance_id, execution_id, status, started_at)
    SELECT t.instance_id, t.execution_id, 'Running', v_now_ts
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    ORDER BY t.n
    ON CONFLICT (instance_id, execution_id) DO NOTHING;

    INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data, created_at)
    SELECT t.instance_id, t.execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data',
           v_now_ts
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    CROSS JOIN LATERAL jsonb_array_elements(COALESCE(p_history_deltas->(t.n::INTEGER - 1), '[]'::JSONB))
         WITH ORDINALITY AS d(e, k)
    ORDER BY t.n, d.k;

    UPDATE {{schema}}.executions x
    SET status = m->>'status',
        output = m->>'output',
        completed_at = CASE WHEN m->>'status' IN ('Completed', 'Failed') THEN v_now_ts END
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
    WHERE m->>'status' IS NOT NULL
      AND x.instance_id = t.instance_id AND x.execution_id = t.execution_id;

    UPDATE {{schema}}.instances i
    SET custom_status = CASE WHEN m->>'custom_status_action' = 'set' THEN m->>'custom_status_value' END,
        custom_status_version = i.custom_status_version + 1
    FROM unnest(v_instance_ids) WITH ORDINALITY AS t(instance_id, n)
    CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
    WHERE m->>'custom_status_action' IN ('set', 'clear')
      AND i.instance_id = t.instance_id;

    UPDATE {{schema}}.executions x
    SET duroxide_version_major = (m->'pinned_duroxide_version'->>'major')::INTEGER,
        duroxide_version_minor = (m->'pinned_duroxide_version'->>'minor')::INTEGER,
        duroxide_version_patch = (m->'pinned_duroxide_version'->>'patch')::INTEGER
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
    WHERE jsonb_typeof(m->'pinned_duroxide_version') = 'object'
      AND x.instance_id = t.instance_id AND x.execution_id = t.execution_id;

    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_metadata) AS m
               WHERE m->>'status' IN ('Completed', 'ContinuedAsNew', 'Failed')) THEN
        INSERT INTO {{schema}}.kv_store AS s (instance_id, key, value, execution_id, last_updated_at_ms)
        SELECT d.instance_id, d.key, d.value, t.execution_id, d.last_updated_at_ms
        FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
        JOIN {{schema}}.kv_delta d ON d.instance_id = t.instance_id
        WHERE p_metadata->(t.n::INTEGER - 1)->>'status' IN ('Completed', 'ContinuedAsNew', 'Failed')
          AND d.value IS NOT NULL
        ON CONFLICT (instance_id, key) DO UPDATE
        SET value = EXCLUDED.value,
            execution_id = EXCLUDED.execution_id,
            last_updated_at_ms = EXCLUDED.last_updated_at_ms;
        DELETE FROM {{schema}}.kv_store s
        USING unnest(v_instance_ids) WITH ORDINALITY AS t(instance_id, n), {{schema}}.kv_delta d
        WHERE p_metadata->(t.n::INTEGER - 1)->>'status' IN ('Completed', 'ContinuedAsNew', 'Failed')
          AND s.instance_id = t.instance_id
          AND d.instance_id = t.instance_id
          AND d.key = s.key
          AND d.value IS NULL;
        DELETE FROM {{schema}}.kv_delta d
        USING unnest(v_instance_ids) WITH ORDINALITY AS t(instance_id, n)
        WHERE p_metadata->(t.n::INTEGER - 1)->>'status' IN ('Completed', 'ContinuedAsNew', 'Failed')
          AND d.instance_id = t.instance_id;
    END IF;

    INSERT INTO {{schema}}.worker_queue
        (work_item, visible_at, created_at, instance_id, execution_id, activity_id, session_id, tag,
         lock_token, locked_until, attempt_count)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT,
           w->'ActivityExecute'->>'session_id',
           w->'ActivityExecute'->>'tag',
           claim.lock_token,
           CASE WHEN claim.lock_token IS NOT NULL THEN p_now_ms + p_activity_lease_ms END,
           CASE WHEN claim.lock_token IS NOT NULL THEN 1 ELSE 0 END
    FROM jsonb_array_elements(p_worker_items) WITH ORDINALITY AS t(items, n)
    CROSS JOIN LATERAL jsonb_array_elements(COALESCE(t.items, '[]'::JSONB)) WITH ORDINALITY AS i(w, k)
    CROSS JOIN LATERAL (SELECT p_activity_lock_tokens->(t.n::INTEGER - 1)->>(i.k::INTEGER - 1) AS lock_token) AS claim
    ORDER BY t.n, i.k;

    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_cancelled_activities) AS t(cancelled)
               WHERE jsonb_array_length(COALESCE(t.cancelled, '[]'::JSONB)) > 0) THEN
        DELETE FROM {{schema}}.worker_queue q
        USING jsonb_array_elements(p_cancelled_activities) AS t(cancelled),
              jsonb_array_elements(COALESCE(t.cancelled, '[]'::JSONB)) AS c
        WHERE q.instance_id = c->>'instance'
          AND q.execution_id = (c->>'execution_id')::BIGINT
          AND q.activity_id = (c->>'activity_id')::BIGINT;
    END IF;

    INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
    SELECT COALESCE(
               COALESCE(o->'SubOrchCompleted', o->'SubOrchFailed')->>'parent_instance',
               COALESCE(o->'StartOrchestration', o->'ContinueAsNew', o->'TimerFired',
                        o->'ActivityCompleted', o->'ActivityFailed', o->'ExternalRaised',
                        o->'CancelInstance', o->'QueueMessage')->>'instance',
               t.instance_id),
           o::TEXT,
           CASE WHEN (o->'TimerFired'->>'fire_at_ms')::BIGINT > 0
                THEN to_timestamp((o->'TimerFired'->>'fire_at_ms')::BIGINT / 1000.0)
                ELSE v_now_ts END,
           v_now_ts
    FROM unnest(v_instance_ids) WITH ORDINALITY AS t(instance_id, n)
    CROSS JOIN LATERAL jsonb_array_elements(COALESCE(p_orchestrator_items->(t.n::INTEGER - 1), '[]'::JSONB))
         WITH ORDINALITY AS i(o, k)
    ORDER BY t.n, i.k;

    DELETE FROM {{schema}}.orchestrator_queue WHERE lock_token = ANY (p_lock_tokens);
    DELETE FROM {{schema}}.instance_locks il
    USING unnest(v_instance_ids, p_lock_tokens) AS t(instance_id, lock_token)
    WHERE il.instance_id = t.instance_id AND il.lock_token = t.lock_token;
    GET DIAGNOSTICS v_released = ROW_COUNT;
    IF v_released <> v_count THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;
    RETURN TRUE;
END;
$fn$ LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan;

-- As duro 0008's duro_ack_orchestration_items, with the activities' lock tokens passed on to the
-- merged path; out_activities_claimed tells whether they were written (the batch went merged).
CREATE OR REPLACE FUNCTION {{schema}}.duro_ack_orchestration_items_claiming(
    p_lock_tokens TEXT[],
    p_now_ms BIGINT,
    p_execution_ids BIGINT[],
    p_history_deltas JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB,
    p_cancelled_activities JSONB,
    p_activity_lock_tokens JSONB,
    p_activity_lease_ms BIGINT
)
RETURNS TABLE(
    out_position INTEGER,
    out_error_code TEXT,
    out_error_message TEXT,
    out_activities_claimed BOOLEAN
) AS $fn$
DECLARE
    v_count INTEGER := COALESCE(array_length(p_lock_tokens, 1), 0);
    v_turn INTEGER;
    v_together BOOLEAN := FALSE;
BEGIN
    IF COALESCE(array_length(p_execution_ids, 1), 0) <> v_count
       OR jsonb_array_length(p_history_deltas) <> v_count
       OR jsonb_array_length(p_worker_items) <> v_count
       OR jsonb_array_length(p_orchestrator_items) <> v_count
       OR jsonb_array_length(p_metadata) <> v_count
       OR jsonb_array_length(p_cancelled_activities) <> v_count
       OR (p_activity_lock_tokens IS NOT NULL AND jsonb_array_length(p_activity_lock_tokens) <> v_count) THEN
        RAISE EXCEPTION 'duro_ack_orchestration_items: every argument needs one element per lock token (%)',
            v_count;
    END IF;
    IF p_activity_lock_tokens IS NOT NULL AND p_activity_lease_ms IS NULL THEN
        RAISE EXCEPTION 'duro_ack_orchestration_items: claimed activities need a lease (p_activity_lease_ms)';
    END IF;
    -- A session's activities go to its owner, so the caller may not claim them here.
    IF EXISTS (
        SELECT 1
        FROM jsonb_array_elements(p_worker_items) WITH ORDINALITY AS t(items, n)
        CROSS JOIN LATERAL (SELECT p_activity_lock_tokens->(t.n::INTEGER - 1) AS tokens) AS claim
        WHERE claim.tokens IS NOT NULL AND jsonb_typeof(claim.tokens) <> 'null'
          AND (jsonb_typeof(claim.tokens) <> 'array'
               OR jsonb_array_length(claim.tokens) <> jsonb_array_length(COALESCE(t.items, '[]'::JSONB))
               OR EXISTS (SELECT 1
                          FROM jsonb_array_elements(COALESCE(t.items, '[]'::JSONB)) WITH ORDINALITY AS i(w, k)
                          WHERE claim.tokens->>(i.k::INTEGER - 1) IS NOT NULL
                            AND w->'ActivityExecute'->>'session_id' IS NOT NULL))) THEN
        RAISE EXCEPTION 'duro_ack_orchestration_items: p_activity_lock_tokens needs, per turn, null or one entry per worker item, and no token for an activity of a session';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(t.instance_id)),
            pg_advisory_xact_lock(hashtext(t.instance_id))
    FROM (SELECT DISTINCT il.instance_id
          FROM {{schema}}.instance_locks il
          WHERE il.lock_token = ANY (p_lock_tokens)
          ORDER BY il.instance_id) AS t;
    BEGIN
        v_together := {{schema}}.duro_ack_orchestration_turns_together(
            p_lock_tokens, p_now_ms, p_execution_ids, p_history_deltas, p_worker_items,
            p_orchestrator_items, p_metadata, p_cancelled_activities, p_activity_lock_tokens,
            p_activity_lease_ms);
    EXCEPTION WHEN OTHERS THEN
        v_together := FALSE;
    END;
    FOR v_turn IN 1..v_count LOOP
        out_position := v_turn;
        out_error_code := NULL;
        out_error_message := NULL;
        out_activities_claimed := v_together;
        IF v_together THEN
            RETURN NEXT;
            CONTINUE;
        END IF;
        BEGIN
            PERFORM {{schema}}.ack_orchestration_item(
                p_lock_tokens[v_turn], p_now_ms, p_execution_ids[v_turn],
                p_history_deltas->(v_turn - 1), p_worker_items->(v_turn - 1),
                p_orchestrator_items->(v_turn - 1), p_metadata->(v_turn - 1),
                p_cancelled_activities->(v_turn - 1));
        EXCEPTION WHEN OTHERS THEN
            out_error_code := SQLSTATE;
            out_error_message := SQLERRM;
        END;
        RETURN NEXT;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;

-- duro 0008's entry point, for callers that claim nothing.
CREATE OR REPLACE FUNCTION {{schema}}.duro_ack_orchestration_items(
    p_lock_tokens TEXT[],
    p_now_ms BIGINT,
    p_execution_ids BIGINT[],
    p_history_deltas JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB,
    p_cancelled_activities JSONB
)
RETURNS TABLE(
    out_position INTEGER,
    out_error_code TEXT,
    out_error_message TEXT
) AS $fn$
    SELECT a.out_position, a.out_error_code, a.out_error_message
    FROM {{schema}}.duro_ack_orchestration_items_claiming(
        p_lock_tokens, p_now_ms, p_execution_ids, p_history_deltas, p_worker_items,
        p_orchestrator_items, p_metadata, p_cancelled_activities, NULL, NULL) AS a;
$fn$ LANGUAGE sql;
