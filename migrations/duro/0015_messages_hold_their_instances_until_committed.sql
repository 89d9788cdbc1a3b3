-- duro 0015 a message added for an instance holds the instance's shared advisory lock until it
-- commits, whether or not the instance is locked when the message is added (for up to 64
-- instances per transaction).
--
-- duro 0005's trigger took the shared lock only for instances with a lock row, so that a
-- statement starting a thousand instances takes no locks. But the look races with a claim: a
-- message added for an idle instance X (an activity's completion, say) took no lock; before it
-- committed, a fetch claimed X for another of its messages; that turn's ack looked for messages
-- left for X before releasing it and could not see the uncommitted one; the message then committed
-- while the ack's own commit was still being flushed, and its notification woke a fetch that saw
-- X still locked. Nothing announced X again: it waited for the safety-net poll, 5 s by default.
-- The bench's fan-out-5 at 8:16 showed a wait of that shape twice in about 13,500 instances (3.1
-- and 3.4 s, from a turn's commit to the next fetch of its instance).
--
-- Holding the shared lock closes the race: a claim only tries the instance's lock, so it skips X
-- until the message has committed, and the message's notification then finds X free with every
-- message it has. Starting many instances at once still takes few locks: a transaction holds
-- the locks of at most 64 instances this way (PostgreSQL's default max_locks_per_transaction,
-- counted in a transaction-local setting); past that, its statements lock only instances with a
-- lock row, as before, and keep the race for the others.

CREATE OR REPLACE FUNCTION {{schema}}.duro_wait_for_instance_release()
RETURNS TRIGGER AS $fn$
DECLARE
    -- Instances a transaction holds without a lock row: each takes two of the server's shared
    -- lock table slots until commit.
    c_most_held CONSTANT INTEGER := 64;
    v_held INTEGER := COALESCE(NULLIF(current_setting('duro.instances_held_for_messages', TRUE), '')::INTEGER, 0);
    v_adding INTEGER;
    v_every_instance BOOLEAN;
BEGIN
    SELECT count(DISTINCT r.instance_id) INTO v_adding FROM inserted_rows r;
    v_every_instance := v_held + v_adding <= c_most_held;
    IF v_every_instance THEN
        PERFORM set_config('duro.instances_held_for_messages', (v_held + v_adding)::TEXT, TRUE);
    END IF;
    PERFORM pg_advisory_xact_lock_shared(hashtext('{{schema_name}}'), hashtext(t.instance_id)),
            pg_advisory_xact_lock_shared(hashtext(t.instance_id))
    FROM (SELECT DISTINCT r.instance_id
          FROM inserted_rows r
          WHERE v_every_instance
             OR EXISTS (SELECT 1 FROM {{schema}}.instance_locks il
                        WHERE il.instance_id = r.instance_id)
          ORDER BY r.instance_id) AS t;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;
