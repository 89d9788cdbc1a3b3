-- 0009 activity cancellation: worker rows carry the instance, execution and activity id of the
-- ActivityExecute they hold, so an orchestration turn can delete the activities it cancels
-- (p_cancelled_activities: [{instance, execution_id, activity_id}]) before a worker takes them.

ALTER TABLE {{schema}}.worker_queue ADD COLUMN IF NOT EXISTS instance_id TEXT;
ALTER TABLE {{schema}}.worker_queue ADD COLUMN IF NOT EXISTS execution_id BIGINT;
ALTER TABLE {{schema}}.worker_queue ADD COLUMN IF NOT EXISTS activity_id BIGINT;
CREATE INDEX IF NOT EXISTS idx_worker_activity_lookup
    ON {{schema}}.worker_queue (instance_id, execution_id, activity_id);

DROP FUNCTION IF EXISTS {{schema}}.enqueue_worker_work(TEXT, BIGINT);
CREATE OR REPLACE FUNCTION {{schema}}.enqueue_worker_work(
    p_work_item TEXT,
    p_now_ms BIGINT,
    p_instance_id TEXT DEFAULT NULL,
    p_execution_id BIGINT DEFAULT NULL,
    p_activity_id BIGINT DEFAULT NULL
)
RETURNS VOID AS $fn$
DECLARE
    v_now_ts TIMESTAMPTZ := to_timestamp(p_now_ms / 1000.0);
BEGIN
    INSERT INTO {{schema}}.worker_queue (work_item, visible_at, created_at, instance_id, execution_id, activity_id)
    VALUES (p_work_item, v_now_ts, v_now_ts, p_instance_id, p_execution_id, p_activity_id);
END;
$fn$ LANGUAGE plpgsql;

DROP FUNCTION IF EXISTS {{schema}}.ack_orchestration_item(TEXT, BIGINT, JSONB, JSONB, JSONB, JSONB);
CREATE OR REPLACE FUNCTION {{schema}}.ack_orchestration_item(
    p_lock_token TEXT,
    p_execution_id BIGINT,
    p_history_delta JSONB,
    p_worker_items JSONB,
    p_orchestrator_items JSONB,
    p_metadata JSONB,
    p_cancelled_activities JSONB DEFAULT '[]'::JSONB
)
RETURNS VOID AS $fn$
DECLARE
    v_now_ms BIGINT := (extract(EPOCH FROM now()) * 1000)::BIGINT;
    v_now_ts TIMESTAMPTZ := to_timestamp(v_now_ms / 1000.0);
    v_instance_id TEXT;
    v_name TEXT := p_metadata->>'orchestration_name';
    v_version TEXT := p_metadata->>'orchestration_version';
    v_status TEXT := p_metadata->>'status';
BEGIN
    SELECT il.instance_id INTO v_instance_id
    FROM {{schema}}.instance_locks il
    WHERE il.lock_token = p_lock_token AND il.locked_until > v_now_ms;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'Invalid lock token';
    END IF;

    IF v_name IS NOT NULL AND v_version IS NOT NULL THEN
        INSERT INTO {{schema}}.instances AS i (instance_id, orchestration_name, orchestration_version, current_execution_id)
        VALUES (v_instance_id, v_name, v_version, p_execution_id)
        ON CONFLICT (instance_id) DO UPDATE
        SET orchestration_name = EXCLUDED.orchestration_name,
            orchestration_version = EXCLUDED.orchestration_version,
            current_execution_id = GREATEST(i.current_execution_id, EXCLUDED.current_execution_id);
    ELSE
        UPDATE {{schema}}.instances
        SET current_execution_id = GREATEST(current_execution_id, p_execution_id)
        WHERE instance_id = v_instance_id;
    END IF;

    INSERT INTO {{schema}}.executions (instance_id, execution_id, status, started_at)
    VALUES (v_instance_id, p_execution_id, 'Running', v_now_ts)
    ON CONFLICT (instance_id, execution_id) DO NOTHING;

    INSERT INTO {{schema}}.history (instance_id, execution_id, event_id, event_type, event_data)
    SELECT v_instance_id, p_execution_id, (e->>'event_id')::BIGINT, e->>'event_type', e->>'event_data'
    FROM jsonb_array_elements(COALESCE(p_history_delta, '[]'::JSONB)) AS e;

    IF v_status IS NOT NULL THEN
        UPDATE {{schema}}.executions
        SET status = v_status,
            output = p_metadata->>'output',
            completed_at = CASE WHEN v_status IN ('Completed', 'Failed') THEN v_now_ts END
        WHERE instance_id = v_instance_id AND execution_id = p_execution_id;
    END IF;

    DELETE FROM {{schema}}.worker_queue q
    USING jsonb_array_elements(COALESCE(p_cancelled_activities, '[]'::JSONB)) AS c
    WHERE q.instance_id = c->>'instance'
      AND q.execution_id = (c->>'execution_id')::BIGINT
      AND q.activity_id = (c->>'activity_id')::BIGINT;

    INSERT INTO {{schema}}.worker_queue (work_item, visible_at, created_at, instance_id, execution_id, activity_id)
    SELECT w::TEXT, v_now_ts, v_now_ts,
           w->'ActivityExecute'->>'instance',
           (w->'ActivityExecute'->>'execution_id')::BIGINT,
           (w->'ActivityExecute'->>'id')::BIGINT
    FROM jsonb_array_elements(COALESCE(p_worker_items, '[]'::JSONB)) WITH ORDINALITY AS t(w, n)
    ORDER BY n;

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
