-- duro 0016 lets an activity acknowledgement claim, in the same statement, the turns its
-- completions wake.
--
-- An activity's completion took a durable commit of its own, a notification, and then a fetch's
-- claim with another durable commit before the woken turn could run. When a fetch of the same
-- provider is waiting for turns, duro_ack_work_items_claiming_turns acknowledges the activities
-- as duro's batch acknowledgement does and then claims the named instances' turns as
-- duro_claim_orchestration_turn claims one: one statement, one commit (as durable as the
-- acknowledgement), and the waiting fetch gets the turns without waiting for the notification.
--
-- It is one statement so that no transaction spans round trips while it holds instance advisory
-- locks (duroxide-pg keys them by instance id alone, in every schema of the database). For the
-- same reason it only tries an instance's one-key lock: an instance held elsewhere, or whose
-- message another transaction is still adding, is left to the notification and the fetch. So is
-- an instance that still has activities in the worker queue: a fan-out's turn waits for its
-- branches as it did, rather than running once per completion.

CREATE FUNCTION {{schema}}.duro_ack_work_items_claiming_turns(
    p_lock_tokens TEXT[],
    p_instance_ids TEXT[],
    p_completions TEXT[],
    p_now_ms BIGINT,
    p_claim_instance_ids TEXT[],
    p_lock_timeout_ms BIGINT,
    p_min_version_packed BIGINT,
    p_max_version_packed BIGINT,
    p_cached_instance_ids TEXT[],
    p_cached_execution_ids BIGINT[],
    p_cached_last_event_ids BIGINT[]
)
RETURNS TABLE(
    out_acked_lock_token TEXT,
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
    v_instance_id TEXT;
BEGIN
    -- Each lock is acknowledged only under a live lease: its row deleted, its completion (if
    -- any) enqueued visible now in the order given, its session's activity noted. A row per
    -- acknowledged lock.
    RETURN QUERY
    WITH acks AS (
        SELECT a.lock_token, a.instance_id, a.completion, a.position
        FROM unnest(p_lock_tokens, p_instance_ids, p_completions)
             WITH ORDINALITY AS a(lock_token, instance_id, completion, position)
    ),
    deleted AS (
        DELETE FROM {{schema}}.worker_queue q
        USING acks a
        WHERE q.lock_token = a.lock_token AND q.locked_until > p_now_ms
        RETURNING q.lock_token, q.session_id, a.instance_id, a.completion, a.position
    ),
    enqueued AS (
        INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
        SELECT d.instance_id, d.completion, to_timestamp(p_now_ms / 1000.0),
               to_timestamp(p_now_ms / 1000.0)
        FROM deleted d
        WHERE d.completion IS NOT NULL
        ORDER BY d.position
    ),
    touched_sessions AS (
        UPDATE {{schema}}.sessions s SET last_activity_at = p_now_ms
        WHERE s.session_id IN (SELECT d.session_id FROM deleted d) AND s.locked_until > p_now_ms
    )
    SELECT d.lock_token, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::JSONB,
           NULL::JSONB, NULL::TEXT, NULL::INTEGER, NULL::JSONB, NULL::BIGINT, NULL::JSONB
    FROM deleted d;

    FOREACH v_instance_id IN ARRAY COALESCE(p_claim_instance_ids, '{}') LOOP
        -- An instance with activities still queued or running (a fan-out's other branches) is
        -- left to the notification, as before: claimed at once, its turn would run with fewer
        -- completions and replay its history more often.
        CONTINUE WHEN EXISTS (SELECT 1 FROM {{schema}}.worker_queue w
                              WHERE w.instance_id = v_instance_id);
        -- Tried, not waited for (duro_claim_orchestration_turn waits briefly for this key): the
        -- caller's fetch, handed nothing, waits for the notification.
        CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtext(v_instance_id));
        RETURN QUERY
        SELECT NULL::TEXT, v_instance_id, t.*
        FROM {{schema}}.duro_claim_orchestration_turn(
            v_instance_id, p_now_ms, p_lock_timeout_ms, p_min_version_packed,
            p_max_version_packed, p_cached_instance_ids, p_cached_execution_ids,
            p_cached_last_event_ids) t
        WHERE t.out_lock_token IS NOT NULL;
    END LOOP;
END;
$fn$ LANGUAGE plpgsql;
