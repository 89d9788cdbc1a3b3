-- duro 0003 turn batches: a dispatcher slot claims several instance turns in one round trip and
-- commits their outcomes in another, instead of one fetch and one ack per turn.
--
-- duro_fetch_orchestration_items claims up to p_max_items instances, each exactly as
-- duro_fetch_orchestration_item (duro 0002) claims one, which it calls in turn until a call comes
-- back empty; the claims share one transaction. Its columns are that function's, one row per
-- claimed instance.
--
-- duro_ack_orchestration_items acknowledges several turns, each exactly as ack_orchestration_item
-- does, in its own subtransaction: a turn whose ack raises (an invalid or expired lock token,
-- history that cannot be stored) is rolled back alone and reported with the error's SQLSTATE and
-- text, while the others commit. The arguments are ack_orchestration_item's, one array element
-- per turn; out_position counts from 1, in the order given, and every turn gets a row.

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
    v_claimed INTEGER;
    v_found BOOLEAN;
BEGIN
    IF p_max_items IS NULL OR p_max_items < 1 THEN
        RAISE EXCEPTION 'duro_fetch_orchestration_items: p_max_items must be at least 1, got %',
            p_max_items;
    END IF;
    FOR v_claimed IN 1..p_max_items LOOP
        v_found := FALSE;
        FOR out_instance_id, out_orchestration_name, out_orchestration_version, out_execution_id,
            out_history, out_messages, out_lock_token, out_attempt_count, out_kv_snapshot,
            out_history_after_event_id, out_history_anchor IN
            SELECT * FROM {{schema}}.duro_fetch_orchestration_item(
                p_now_ms, p_lock_timeout_ms, p_min_version_packed, p_max_version_packed,
                p_cached_instance_ids, p_cached_execution_ids, p_cached_last_event_ids)
        LOOP
            v_found := TRUE;
            RETURN NEXT;
        END LOOP;
        EXIT WHEN NOT v_found;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;

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
DECLARE
    v_count INTEGER := COALESCE(array_length(p_lock_tokens, 1), 0);
    v_turn INTEGER;
BEGIN
    IF COALESCE(array_length(p_execution_ids, 1), 0) <> v_count
       OR jsonb_array_length(p_history_deltas) <> v_count
       OR jsonb_array_length(p_worker_items) <> v_count
       OR jsonb_array_length(p_orchestrator_items) <> v_count
       OR jsonb_array_length(p_metadata) <> v_count
       OR jsonb_array_length(p_cancelled_activities) <> v_count THEN
        RAISE EXCEPTION 'duro_ack_orchestration_items: every argument needs one element per lock token (%)',
            v_count;
    END IF;
    -- An integer FOR declares its own variable, so the loop counts in v_turn, not the column.
    FOR v_turn IN 1..v_count LOOP
        out_position := v_turn;
        out_error_code := NULL;
        out_error_message := NULL;
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
