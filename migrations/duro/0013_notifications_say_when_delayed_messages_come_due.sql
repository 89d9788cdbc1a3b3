-- duro 0013 a delayed message announces when it comes due: inserting rows that become visible
-- later also sends a NOTIFY on the queue's channel whose payload is the earliest such time, in
-- epoch milliseconds (duro_notify_queue_insert, as duro 0010 left it otherwise: rows written
-- claimed send nothing).
--
-- Until now a delayed row sent nothing, and only the process that wrote it knew when it came
-- due; another process's idle fetches learnt of it from their own read of the due times, which
-- they repeat only at the safety-net poll (5 s by default). A row due within the next second
-- did send the empty notification (for writers whose clock runs ahead), which woke a fetch
-- elsewhere that looked a moment too early, found nothing, and then waited for that poll too.
-- With the time in the payload, every listener can wake a fetch when the row comes due.
--
-- The empty notification is sent as before, so a listener that ignores payloads (an older duro)
-- still wakes for rows visible now; for it a payload notification is one more early look.
-- Notifications with different payloads do not fold into one, so a statement sends at most two:
-- the empty one and the earliest due time of its delayed rows.

CREATE OR REPLACE FUNCTION {{schema}}.duro_notify_queue_insert()
RETURNS TRIGGER AS $fn$
DECLARE
    v_fetchable_now BOOLEAN;
    v_first_due_ms BIGINT;
    v_channel TEXT;
BEGIN
    -- One pass over the inserted rows; the first due time is rounded up, since a listener that
    -- woke a fetch a moment early would find nothing.
    SELECT bool_or(r.visible_at <= now() + INTERVAL '1 second'),
           ceil(extract(EPOCH FROM min(r.visible_at) FILTER (WHERE r.visible_at > now())) * 1000)
    INTO v_fetchable_now, v_first_due_ms
    FROM inserted_rows r
    WHERE r.lock_token IS NULL;
    IF v_fetchable_now IS NOT TRUE AND v_first_due_ms IS NULL THEN
        RETURN NULL;
    END IF;
    v_channel := {{schema}}.duro_wakeup_channel(TG_TABLE_SCHEMA,
        CASE TG_TABLE_NAME WHEN 'orchestrator_queue' THEN 'orchestrator' ELSE 'worker' END);
    IF v_fetchable_now THEN
        PERFORM pg_notify(v_channel, '');
    END IF;
    IF v_first_due_ms IS NOT NULL THEN
        PERFORM pg_notify(v_channel, v_first_due_ms::TEXT);
    END IF;
    RETURN NULL;
END;
$fn$ LANGUAGE plpgsql;
