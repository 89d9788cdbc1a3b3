-- 0021 instance statistics for the management API: size of the current execution's history,
-- number and size of live keys. out_queue_pending_count counts the events carried forward into
-- the current execution by continue-as-new (duroxide-pg's meaning of the column), read from its
-- first history event.

CREATE OR REPLACE FUNCTION {{schema}}.get_instance_stats(p_instance TEXT)
RETURNS TABLE(
    out_found BOOLEAN,
    out_history_event_count BIGINT,
    out_history_size_bytes BIGINT,
    out_queue_pending_count BIGINT,
    out_kv_user_key_count BIGINT,
    out_kv_total_value_bytes BIGINT
) AS $fn$
DECLARE
    v_execution_id BIGINT;
    v_carried JSONB;
BEGIN
    out_found := FALSE;
    out_history_event_count := 0;
    out_history_size_bytes := 0;
    out_queue_pending_count := 0;
    out_kv_user_key_count := 0;
    out_kv_total_value_bytes := 0;

    SELECT i.current_execution_id INTO v_execution_id
    FROM {{schema}}.instances i
    WHERE i.instance_id = p_instance;
    IF NOT FOUND THEN
        RETURN NEXT;
        RETURN;
    END IF;
    out_found := TRUE;

    SELECT count(*), COALESCE(sum(octet_length(h.event_data)), 0)
    INTO out_history_event_count, out_history_size_bytes
    FROM {{schema}}.history h
    WHERE h.instance_id = p_instance AND h.execution_id = v_execution_id;

    SELECT count(*) INTO out_kv_user_key_count
    FROM (SELECT s.key FROM {{schema}}.kv_store s WHERE s.instance_id = p_instance
          UNION
          SELECT d.key FROM {{schema}}.kv_delta d
          WHERE d.instance_id = p_instance AND d.value IS NOT NULL) AS k;

    -- Sums both tables, as duroxide-pg does (a key set in both counts twice).
    out_kv_total_value_bytes :=
        COALESCE((SELECT sum(octet_length(s.value)) FROM {{schema}}.kv_store s
                  WHERE s.instance_id = p_instance), 0)
      + COALESCE((SELECT sum(octet_length(d.value)) FROM {{schema}}.kv_delta d
                  WHERE d.instance_id = p_instance), 0);

    SELECT h.event_data::JSONB->'carry_forward_events' INTO v_carried
    FROM {{schema}}.history h
    WHERE h.instance_id = p_instance AND h.execution_id = v_execution_id AND h.event_id = 1;
    IF jsonb_typeof(v_carried) = 'array' THEN
        out_queue_pending_count := jsonb_array_length(v_carried);
    END IF;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;
