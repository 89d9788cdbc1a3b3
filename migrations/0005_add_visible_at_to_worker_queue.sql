-- 0005 delayed activity retries: a worker row carries visible_at, a fetch skips rows that are not
-- visible yet, and an abandon with a delay releases the row and pushes its visibility out instead
-- of keeping it locked. (0001 already creates the column; the statements keep older schemas
-- right.)

ALTER TABLE {{schema}}.worker_queue ADD COLUMN IF NOT EXISTS visible_at TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP;
CREATE INDEX IF NOT EXISTS idx_worker_visible ON {{schema}}.worker_queue (visible_at, lock_token);

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

CREATE OR REPLACE FUNCTION {{schema}}.abandon_work_item(
    p_lock_token TEXT,
    p_delay_ms BIGINT DEFAULT NULL,
    p_ignore_attempt BOOLEAN DEFAULT FALSE
)
RETURNS VOID AS $fn$
BEGIN
    UPDATE {{schema}}.worker_queue
    SET lock_token = NULL,
        locked_until = NULL,
        visible_at = now() + make_interval(secs => GREATEST(COALESCE(p_delay_ms, 0), 0) / 1000.0),
        attempt_count = CASE WHEN p_ignore_attempt THEN GREATEST(0, attempt_count - 1)
                             ELSE attempt_count END
    WHERE lock_token = p_lock_token;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token or already acked';
    END IF;
END;
$fn$ LANGUAGE plpgsql;
