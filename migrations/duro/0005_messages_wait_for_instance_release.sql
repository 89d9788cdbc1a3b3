-- duro 0005 messages wait for an instance's release: a message for an instance whose lock is being
-- released commits after that release, so the wake-up it sends finds the instance free.
--
-- An ack (or abandon) that releases an instance looks for messages waiting for it and, finding
-- some, notifies (duro 0001's duro_notify_instance_release). A message committed for the instance
-- between that look and the ack's commit was missed twice: the ack's look could not see it, and
-- the fetch its own notification woke still saw the instance locked. It then waited for the
-- safety-net poll, 5 s by default.
--
-- Here every statement that adds messages to orchestrator_queue takes the shared form of the
-- advisory lock of each target instance that has a lock row, which ack, renew and abandon hold
-- exclusively while they touch the instance (0026): a message either commits before the release
-- starts (whose look then sees it) or waits until the release has committed (and its
-- notification finds the instance free). An instance without a lock row, or whose release has
-- committed, has nothing to wait for, so a statement that starts a thousand new instances takes
-- no locks (each would take a slot of the server's shared lock table).
-- A claim only tries the lock, so it skips the instance while such a message is being added; the
-- message's notification, sent at its commit, makes a fetch look again. Messages never wait for
-- each other. Both key forms are taken, the schema-scoped one of duro's 0025/0026 and the one-key
-- form of duroxide-pg's, so the wait holds whichever runner defined the ack. Instances are locked
-- in sorted order, and a batch ack takes its instances' locks in the same order before it starts,
-- so a batch ack and a batch of activity completions never wait for each other in a cycle.

CREATE OR REPLACE FUNCTION {{schema}}.duro_wait_for_instance_release()
RETURNS TRIGGER AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtext('{{schema_name}}'), hashtext(t.instance_id)),
            pg_advisory_xact_lock_shared(hashtext(t.instance_id))
    FROM (SELECT DISTINCT r.instance_id
          FROM inserted_rows r
          WHERE EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                        WHERE il.instance_id = r.instance_id)
          ORDER BY r.instance_id) AS t;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS duro_wait_for_instance_release ON {{schema}}.orchestrator_queue;
CREATE TRIGGER duro_wait_for_instance_release AFTER INSERT ON {{schema}}.orchestrator_queue
    REFERENCING NEW TABLE AS inserted_rows
    FOR EACH STATEMENT EXECUTE FUNCTION {{schema}}.duro_wait_for_instance_release();

-- As duro 0003's, but the instances of the batch are locked up front, in the order the trigger
-- above locks them, before the turns are acknowledged one by one (each ack takes its instance's
-- lock again, which the transaction already holds).
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
    PERFORM pg_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(t.instance_id)),
            pg_advisory_xact_lock(hashtext(t.instance_id))
    FROM (SELECT DISTINCT il.instance_id
          FROM {{schema}}.instance_locks il
          WHERE il.lock_token = ANY (p_lock_tokens)
          ORDER BY il.instance_id) AS t;
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
