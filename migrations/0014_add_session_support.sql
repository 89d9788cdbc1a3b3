-- 0014 activity sessions: an activity may name a session; all activities of one session run on
-- the worker that owns it (sessions.worker_id) while its lease lives. A worker fetch with an
-- owner id takes unowned work, work of sessions it owns, and work of sessions whose owner is gone
-- (claiming them); without an owner id it takes only session-less work. Acks and renewals of
-- session work count as session activity, which keeps an idle session from being renewed forever.

ALTER TABLE {{schema}}.worker_queue ADD COLUMN IF NOT EXISTS session_id TEXT;
CREATE INDEX IF NOT EXISTS idx_worker_queue_session_id ON {{schema}}.worker_queue (session_id);

CREATE TABLE IF NOT EXISTS {{schema}}.sessions (
    session_id       TEXT PRIMARY KEY,
    worker_id        TEXT NOT NULL,
    locked_until     BIGINT NOT NULL,
    last_activity_at BIGINT NOT NULL
);

DROP FUNCTION IF EXISTS {{schema}}.enqueue_worker_work(TEXT, BIGINT, TEXT, BIGINT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.enqueue_worker_work(
    p_work_item TEXT,
    p_now_ms BIGINT,
    p_instance_id TEXT DEFAULT NULL,
    p_execution_id BIGINT DEFAULT NULL,
    p_activity_id BIGINT DEFAULT NULL,
    p_session_id TEXT DEFAULT NULL
)
RETURNS VOID AS $fn$
DECLARE
    v_now_ts TIMESTAMPTZ := to_timestamp(p_now_ms / 1000.0);
BEGIN
    INSERT INTO {{schema}}.worker_queue
        (work_item, visible_at, created_at, instance_id, execution_id, activity_id, session_id)
    VALUES (p_work_item, v_now_ts, v_now_ts, p_instance_id, p_execution_id, p_activity_id, p_session_id);
END;
$fn$ LANGUAGE plpgsql;

DROP FUNCTION IF EXISTS {{schema}}.fetch_work_item(BIGINT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.fetch_work_item(
    p_now_ms BIGINT,
    p_lock_timeout_ms BIGINT,
    p_owner_id TEXT DEFAULT NULL,
    p_session_lock_timeout_ms BIGINT DEFAULT NULL
)
RETURNS TABLE(out_work_item TEXT, out_lock_token TEXT, out_attempt_count INTEGER) AS $fn$
DECLARE
    v_id BIGINT;
    v_session_id TEXT;
    v_session_locked_until BIGINT := p_now_ms + COALESCE(p_session_lock_timeout_ms, p_lock_timeout_ms);
BEGIN
    SELECT q.id, q.session_id INTO v_id, v_session_id
    FROM {{schema}}.worker_queue q
    LEFT JOIN {{schema}}.sessions s ON s.session_id = q.session_id AND s.locked_until > p_now_ms
    WHERE q.visible_at <= to_timestamp(p_now_ms / 1000.0)
      AND (q.lock_token IS NULL OR q.locked_until <= p_now_ms)
      AND (q.session_id IS NULL
           OR (p_owner_id IS NOT NULL AND (s.session_id IS NULL OR s.worker_id = p_owner_id)))
    ORDER BY q.id
    LIMIT 1
    FOR UPDATE OF q SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN;
    END IF;

    IF v_session_id IS NOT NULL THEN
        -- Take or extend the session; another worker may have claimed it since the read above.
        INSERT INTO {{schema}}.sessions AS s (session_id, worker_id, locked_until, last_activity_at)
        VALUES (v_session_id, p_owner_id, v_session_locked_until, p_now_ms)
        ON CONFLICT (session_id) DO UPDATE
        SET worker_id = EXCLUDED.worker_id,
            locked_until = EXCLUDED.locked_until,
            last_activity_at = EXCLUDED.last_activity_at
        WHERE s.locked_until <= p_now_ms OR s.worker_id = p_owner_id;
        IF NOT FOUND THEN
            RETURN;
        END IF;
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

-- Reading the session before the delete keeps the session's activity time fresh.
DROP FUNCTION IF EXISTS {{schema}}.ack_worker(TEXT, TEXT, TEXT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.ack_worker(
    p_lock_token TEXT,
    p_instance_id TEXT DEFAULT NULL,
    p_completion_json TEXT DEFAULT NULL,
    p_now_ms BIGINT DEFAULT NULL
)
RETURNS VOID AS $fn$
DECLARE
    v_session_id TEXT;
BEGIN
    IF p_completion_json IS NOT NULL AND p_instance_id IS NULL THEN
        RAISE EXCEPTION 'p_instance_id is required when p_completion_json is provided';
    END IF;
    IF p_completion_json IS NOT NULL AND p_now_ms IS NULL THEN
        RAISE EXCEPTION 'p_now_ms is required when p_completion_json is provided';
    END IF;

    DELETE FROM {{schema}}.worker_queue WHERE lock_token = p_lock_token
    RETURNING session_id INTO v_session_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Worker queue item not found or already processed';
    END IF;

    IF p_completion_json IS NOT NULL THEN
        INSERT INTO {{schema}}.orchestrator_queue (instance_id, work_item, visible_at, created_at)
        VALUES (p_instance_id, p_completion_json, to_timestamp(p_now_ms / 1000.0), to_timestamp(p_now_ms / 1000.0));
    END IF;

    IF v_session_id IS NOT NULL AND p_now_ms IS NOT NULL THEN
        UPDATE {{schema}}.sessions SET last_activity_at = p_now_ms
        WHERE session_id = v_session_id AND locked_until > p_now_ms;
    END IF;
END;
$fn$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION {{schema}}.renew_work_item_lock(
    p_lock_token TEXT,
    p_now_ms BIGINT,
    p_extend_secs BIGINT
)
RETURNS VOID AS $fn$
DECLARE
    v_session_id TEXT;
BEGIN
    UPDATE {{schema}}.worker_queue
    SET locked_until = p_now_ms + p_extend_secs * 1000
    WHERE lock_token = p_lock_token AND locked_until > p_now_ms
    RETURNING session_id INTO v_session_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Lock token invalid, expired, or already acked';
    END IF;
    IF v_session_id IS NOT NULL THEN
        UPDATE {{schema}}.sessions SET last_activity_at = p_now_ms
        WHERE session_id = v_session_id AND locked_until > p_now_ms;
    END IF;
END;
$fn$ LANGUAGE plpgsql;

-- Extends the live sessions of the given owners that saw activity within the idle timeout;
-- returns how many.
CREATE OR REPLACE FUNCTION {{schema}}.renew_session_lock(
    p_owner_ids TEXT[],
    p_now_ms BIGINT,
    p_extend_ms BIGINT,
    p_idle_timeout_ms BIGINT
)
RETURNS BIGINT AS $fn$
DECLARE
    v_count BIGINT;
BEGIN
    UPDATE {{schema}}.sessions
    SET locked_until = p_now_ms + p_extend_ms
    WHERE worker_id = ANY (p_owner_ids)
      AND locked_until > p_now_ms
      AND last_activity_at > p_now_ms - p_idle_timeout_ms;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END;
$fn$ LANGUAGE plpgsql;

-- Deletes expired sessions that no queued activity refers to; returns how many.
CREATE OR REPLACE FUNCTION {{schema}}.cleanup_orphaned_sessions(p_now_ms BIGINT)
RETURNS BIGINT AS $fn$
DECLARE
    v_count BIGINT;
BEGIN
    DELETE FROM {{schema}}.sessions s
    WHERE s.locked_until < p_now_ms
      AND NOT EXISTS (SELECT 1 FROM {{schema}}.worker_queue q WHERE q.session_id = s.session_id);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
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
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > p_now_ms;
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

    -- The duroxide version the execution is pinned to, used by version-filtered fetches.
    IF jsonb_typeof(p_metadata->'pinned_duroxide_version') = 'object' THEN
        UPDATE {{schema}}.executions
        SET duroxide_version_major = (p_metadata->'pinned_duroxide_version'->>'major')::INTEGER,
            duroxide_version_minor = (p_metadata->'pinned_duroxide_version'->>'minor')::INTEGER,
            duroxide_version_patch = (p_metadata->'pinned_duroxide_version'->>'patch')::INTEGER
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    INSERT INTO {{schema}}.worker_queue
        (work_item, visible_at, created_at, instance_id, execution_id, activity_id, session_id)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT,
           w->'ActivityExecute'->>'session_id'
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
END;
$fn$ LANGUAGE plpgsql;
