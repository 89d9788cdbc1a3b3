-- duro 0017 leaves out of a batch's turn commit the statements that have nothing to write.
--
-- duro 0010's duro_ack_orchestration_turns_together ran every one of its statements for every
-- batch: an insert of no activities and of no orchestrator messages, an update of the custom
-- status, of the pinned version or of the executions' status that no turn sets. Each costs the
-- server an executor start-up, and an insert into a queue also runs the table's statement
-- triggers (the wake-up notification, and for orchestrator_queue duro 0015's instance locks) over
-- no rows: each turn of a hello-world orchestration ran four or five statements that wrote
-- nothing, and its empty insert into orchestrator_queue set off four more in triggers.
-- Each step now runs only when the batch's arguments hold something for it, which a jsonpath test
-- of the argument tells without starting a statement; the rows written, their order and their
-- sequence values are 0010's.

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

    IF p_metadata @? '$[*] ? (@.orchestration_name != null && @.orchestration_version != null)' THEN
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
    END IF;

    IF p_metadata @? '$[*] ? (!(@.orchestration_name != null && @.orchestration_version != null))' THEN
        UPDATE {{schema}}.instances i
        SET current_execution_id = GREATEST(i.current_execution_id, t.execution_id),
            updated_at = v_now_ts
        FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
        WHERE i.instance_id = t.instance_id
          AND (p_metadata->(t.n::INTEGER - 1)->>'orchestration_name' IS NULL
               OR p_metadata->(t.n::INTEGER - 1)->>'orchestration_version' IS NULL);
    END IF;

    INSERT INTO {{schema}}.executions (instance_id, execution_id, status, started_at)
    SELECT t.instance_id, t.execution_id, 'Running', v_now_ts
    FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
    ORDER BY t.n
    ON CONFLICT (instance_id, execution_id) DO NOTHING;

    IF p_history_deltas @? '$[*][*]' THEN
        INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data, created_at)
        SELECT t.instance_id, t.execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data',
               v_now_ts
        FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
        CROSS JOIN LATERAL jsonb_array_elements(COALESCE(p_history_deltas->(t.n::INTEGER - 1), '[]'::JSONB))
             WITH ORDINALITY AS d(e, k)
        ORDER BY t.n, d.k;
    END IF;

    IF p_metadata @? '$[*].status ? (@ != null)' THEN
        UPDATE {{schema}}.executions x
        SET status = m->>'status',
            output = m->>'output',
            completed_at = CASE WHEN m->>'status' IN ('Completed', 'Failed') THEN v_now_ts END
        FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
        CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
        WHERE m->>'status' IS NOT NULL
          AND x.instance_id = t.instance_id AND x.execution_id = t.execution_id;
    END IF;

    IF p_metadata @? '$[*].custom_status_action ? (@ == "set" || @ == "clear")' THEN
        UPDATE {{schema}}.instances i
        SET custom_status = CASE WHEN m->>'custom_status_action' = 'set' THEN m->>'custom_status_value' END,
            custom_status_version = i.custom_status_version + 1
        FROM unnest(v_instance_ids) WITH ORDINALITY AS t(instance_id, n)
        CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
        WHERE m->>'custom_status_action' IN ('set', 'clear')
          AND i.instance_id = t.instance_id;
    END IF;

    IF p_metadata @? '$[*].pinned_duroxide_version ? (@.type() == "object")' THEN
        UPDATE {{schema}}.executions x
        SET duroxide_version_major = (m->'pinned_duroxide_version'->>'major')::INTEGER,
            duroxide_version_minor = (m->'pinned_duroxide_version'->>'minor')::INTEGER,
            duroxide_version_patch = (m->'pinned_duroxide_version'->>'patch')::INTEGER
        FROM unnest(v_instance_ids, p_execution_ids) WITH ORDINALITY AS t(instance_id, execution_id, n)
        CROSS JOIN LATERAL (SELECT p_metadata->(t.n::INTEGER - 1) AS m) AS meta
        WHERE jsonb_typeof(m->'pinned_duroxide_version') = 'object'
          AND x.instance_id = t.instance_id AND x.execution_id = t.execution_id;
    END IF;

    IF p_metadata @? '$[*].status ? (@ == "Completed" || @ == "ContinuedAsNew" || @ == "Failed")' THEN
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

    IF p_worker_items @? '$[*][*]' THEN
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
    END IF;

    IF p_cancelled_activities @? '$[*][*]' THEN
        DELETE FROM {{schema}}.worker_queue q
        USING jsonb_array_elements(p_cancelled_activities) AS t(cancelled),
              jsonb_array_elements(COALESCE(t.cancelled, '[]'::JSONB)) AS c
        WHERE q.instance_id = c->>'instance'
          AND q.execution_id = (c->>'execution_id')::BIGINT
          AND q.activity_id = (c->>'activity_id')::BIGINT;
    END IF;

    IF p_orchestrator_items @? '$[*][*]' THEN
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
    END IF;

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
