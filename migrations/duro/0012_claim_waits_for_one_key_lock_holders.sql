-- duro 0012 a claim waits briefly for the one-key advisory lock of its instance instead of
-- skipping the instance at once (duro_claim_orchestration_instance).
--
-- duroxide-pg's ack, renew and abandon, and duro's own acks (duro 0005, 0008), hold
-- pg_advisory_xact_lock(hashtext(instance_id)): a key of the instance id alone, the same in every
-- schema of the database. Two schemas that use the same instance ids (tenants, or a blue and a
-- green deployment) then meet on it: while a worker of one schema acknowledged instance X, a
-- claim of X in the other schema failed its try, skipped X, and found nothing else to claim. X's
-- message had already announced itself, and the ack in the other schema notifies only that
-- schema, so the work waited for the next notification or the idle poll: seconds (the swarm
-- check's mixed fleet saw 2.2 s and 2.7 s).
--
-- Every holder of the key is a single statement (duro holds no transaction open across round
-- trips), so the claim now tries again every 2 ms for up to 100 ms; the scoped key is still only
-- tried, so two claims of one instance in one schema never wait for each other. A claim that
-- holds locks of instances it claimed earlier in the same batch may meet an ack that waits for
-- one of those: the bound, far below deadlock_timeout, ends that wait, and the claim skips X as
-- before.
--
-- The claim itself stays duro 0009's, renamed: the new function takes both keys and then calls
-- it, and its own tries of the keys succeed at once (advisory locks are re-entrant within a
-- session).

ALTER FUNCTION {{schema}}.duro_claim_orchestration_instance(
    TEXT, BIGINT, BIGINT, BIGINT, BIGINT, TEXT[], BIGINT[], BIGINT[]
) RENAME TO duro_claim_orchestration_instance_without_wait;

CREATE OR REPLACE FUNCTION {{schema}}.duro_claim_orchestration_instance(
    p_instance_id TEXT,
    p_now_ms BIGINT,
    p_lock_timeout_ms BIGINT,
    p_min_version_packed BIGINT,
    p_max_version_packed BIGINT,
    p_cached_instance_ids TEXT[],
    p_cached_execution_ids BIGINT[],
    p_cached_last_event_ids BIGINT[]
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
    -- How long the claim waits for another statement's hold of the one-key lock.
    c_one_key_wait CONSTANT INTERVAL := interval '100 milliseconds';
    v_wait_ends TIMESTAMPTZ;
BEGIN
    -- The scoped key is only tried: another claim or ack of this instance in this schema may
    -- keep it longer than a lease (duroxide-pg#21).
    IF NOT pg_try_advisory_xact_lock(hashtext('{{schema_name}}'), hashtext(p_instance_id)) THEN
        RETURN;
    END IF;
    IF NOT pg_try_advisory_xact_lock(hashtext(p_instance_id)) THEN
        v_wait_ends := clock_timestamp() + c_one_key_wait;
        LOOP
            PERFORM pg_sleep(0.002);
            EXIT WHEN pg_try_advisory_xact_lock(hashtext(p_instance_id));
            IF clock_timestamp() >= v_wait_ends THEN
                RETURN;
            END IF;
        END LOOP;
    END IF;
    RETURN QUERY SELECT * FROM {{schema}}.duro_claim_orchestration_instance_without_wait(
        p_instance_id, p_now_ms, p_lock_timeout_ms, p_min_version_packed, p_max_version_packed,
        p_cached_instance_ids, p_cached_execution_ids, p_cached_last_event_ids);
END;
$fn$ LANGUAGE plpgsql;
