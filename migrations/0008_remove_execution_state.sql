-- 0008 reverts 0007: the execution state moved into the runtime, so the worker fetch and the
-- lock renewal return to their 0005 shapes.

DROP FUNCTION IF EXISTS {{schema}}.fetch_work_item(BIGINT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.fetch_work_item(p_now_ms BIGINT, p_lock_timeout_ms BIGINT)
RETURNS TABLE(out_work_item TEXT, out_lock_token TEXT, out_attempt_count INTEGER) AS $fn$
DECLARE
    v_id BIGINT;
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
    RETURN NEXT;
END;
$fn$ LANGUAGE plpgsql;

DROP FUNCTION IF EXISTS {{schema}}.renew_work_item_lock(TEXT, BIGINT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.renew_work_item_lock(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_extend_secs BIGINT
)
RETURNS VOID AS $fn$
BEGIN
    UPDATE {{schema}}.worker_queue
    SET locked_until = p_now_ms + p_extend_secs * 1000
    WHERE lock_token = p_lock_token AND locked_until > p_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already acked';
    END IF;
END;
$fn$ LANGUAGE plpgsql;
