-- 0007 execution state for activities: a worker fetch and a lock renewal also report whether the
-- activity's execution is still running ('Running', 'Terminal:<status>' or 'Missing'), so a
-- worker can stop work whose orchestration ended. 0008 takes this back out.

DROP FUNCTION IF EXISTS {{schema}}.fetch_work_item(BIGINT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.fetch_work_item(p_now_ms BIGINT, p_lock_timeout_ms BIGINT)
RETURNS TABLE(
    out_work_item TEXT,
    out_lock_token TEXT,
    out_attempt_count INTEGER,
    out_execution_state TEXT
) AS $fn$
DECLARE
    v_id BIGINT;
    v_activity JSONB;
    v_status TEXT;
BEGIN
    SELECT q.id INTO v_id
    FROM {{schema}}.worker_queue q
    WHERE q.visible_at <= to_timestamp(p_now_ms / 1000.0)
      AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms)
    ORDER BY q.id
    LIMIT 1
    FOR UPDATE OF q SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    out_lock_token := 'lock_' || gen_random_uuid()::TEXT;
    UPDATE {{schema}}.worker_queue
    SET lock_token = out_lock_token,
        locked_until = p_now_ms + p_lock_timeout_ms,
        attempt_count = attempt_count + 1
    WHERE id = v_id
    RETURNING work_item, attempt_count INTO out_work_item, out_attempt_count;

    v_activity := out_work_item::JSONB->'ActivityExecute';
    SELECT e.status INTO v_status
    FROM {{schema}}.executions e
    WHERE e.instance_id = v_activity->>'instance'
      AND e.execution_id = (v_activity->>'execution_id')::BIGINT;
    out_execution_state := CASE WHEN v_status IS NULL THEN 'Missing'
                                WHEN v_status = 'Running' THEN 'Running'
                                ELSE 'Terminal:' || v_status END;
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

-- Extends the lease only while the execution runs; reports the state either way.
DROP FUNCTION IF EXISTS {{schema}}.renew_work_item_lock(TEXT, BIGINT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.renew_work_item_lock(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_extend_secs BIGINT
)
RETURNS TEXT AS $fn$
DECLARE
    v_activity JSONB;
    v_status TEXT;
    v_state TEXT;
BEGIN
    SELECT q.work_item::JSONB->'ActivityExecute' INTO v_activity
    FROM {{schema}}.worker_queue q
    WHERE q.lock_token = p_lock_token AND q.locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already acked';
    END IF;

    SELECT e.status INTO v_status
    FROM {{schema}}.executions e
    WHERE e.instance_id = v_activity->>'instance'
      AND e.execution_id = (v_activity->>'execution_id')::BIGINT;
    v_state := CASE WHEN v_status IS NULL THEN 'Missing'
                    WHEN v_status = 'Running' THEN 'Running'
                    ELSE 'Terminal:' || v_status END;

    IF v_state = 'Running' THEN
        UPDATE {{schema}}.worker_queue
        SET locked_until = p_now_ms + p_extend_secs * 1000
        WHERE lock_token = p_lock_token;
    END IF;
    RETURN v_state;
END;
$fn$ LANGUAGE plpgsql;
