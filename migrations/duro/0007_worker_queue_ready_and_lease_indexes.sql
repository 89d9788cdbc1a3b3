-- duro 0007 worker queue indexes for ready rows and for leases: a batch fetch of activities reads
-- the rows it can claim, not every row the queue held since the last vacuum.
--
-- The fetch wants the oldest visible rows that are unlocked or whose lease lapsed. No index of the
-- duroxide track serves that: idx_worker_visible leads with visible_at, which every delivered
-- row passes, and its order is not the queue's. The planner then chose a bitmap scan of it,
-- sorted by id. A bitmap scan never marks the index entries of dead rows as dead, as a plain index
-- scan does on its first visit, so every fetch read again every activity acknowledged since the
-- table's last vacuum (autovacuum looks at a database once a minute by default), and every row
-- of a backlog of waiting activities.
--
-- duro_idx_worker_ready holds the ids of unlocked rows, in the queue's order: the fetch reads its
-- head and stops after the batch, marking the entries of acknowledged rows it passes. A locking
-- update leaves it, so rows being worked on are not read either.
-- duro_idx_worker_lease_expiry holds the lease end of locked rows: the fetch finds lapsed leases
-- by range, without reading the live ones.
-- Both are partial, so each row is in exactly one of them; an insert writes the first, a claim
-- the second, as a claim already writes every other index of the table.
--
-- On a large worker_queue the indexes are built while the migration holds the table; the queue
-- of a running system is short.

CREATE INDEX IF NOT EXISTS duro_idx_worker_ready
    ON {{schema}}.worker_queue (id) WHERE lock_token IS NULL;

CREATE INDEX IF NOT EXISTS duro_idx_worker_lease_expiry
    ON {{schema}}.worker_queue (locked_until) WHERE lock_token IS NOT NULL;
