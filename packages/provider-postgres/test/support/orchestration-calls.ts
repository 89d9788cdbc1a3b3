import type pg from 'pg';

/** What one fetch_orchestration_item call returned, with the lease as read right after it. */
export interface FetchedItem {
  readonly instanceId: string;
  readonly lockToken: string;
  readonly attemptCount: number;
  /** locked_until of the returned lock minus the clock when the call returned, in ms. */
  readonly leaseLeftMs: number;
}

/** A version range for the filtered branch of fetch_orchestration_item (packed, inclusive). */
export const ANY_PINNED_VERSION = { min: 0, max: 999_999_999 } as const;

/** Enqueues a client StartOrchestration for `instanceId`, visible at `visibleAtMs`. */
export async function enqueueStart(
  db: pg.Pool | pg.ClientBase,
  schema: string,
  instanceId: string,
  visibleAtMs = Date.now(),
): Promise<void> {
  const workItem = JSON.stringify({
    StartOrchestration: {
      instance: instanceId,
      orchestration: 'Probe',
      input: '""',
      version: '1.0.0',
      parent_instance: null,
      parent_id: null,
    },
  });
  await db.query(
    `SELECT "${schema}".enqueue_orchestrator_work($1, $2, to_timestamp($3::bigint / 1000.0))`,
    [instanceId, workItem, visibleAtMs],
  );
}

/** Calls fetch_orchestration_item; `undefined` when it returned no row. */
export async function fetchItem(
  client: pg.ClientBase,
  schema: string,
  nowMs: number,
  lockTimeoutMs: number,
  versionRange?: { readonly min: number; readonly max: number },
): Promise<FetchedItem | undefined> {
  const result = versionRange
    ? await client.query<{
        out_instance_id: string;
        out_lock_token: string;
        out_attempt_count: number;
      }>(`SELECT * FROM "${schema}".fetch_orchestration_item($1, $2, $3, $4)`, [
        nowMs,
        lockTimeoutMs,
        versionRange.min,
        versionRange.max,
      ])
    : await client.query<{
        out_instance_id: string;
        out_lock_token: string;
        out_attempt_count: number;
      }>(`SELECT * FROM "${schema}".fetch_orchestration_item($1, $2)`, [nowMs, lockTimeoutMs]);
  const returnedAt = Date.now();
  const row = result.rows[0];
  if (!row) return undefined;
  const lease = await client.query<{ locked_until: string }>(
    `SELECT locked_until FROM "${schema}".instance_locks WHERE lock_token = $1`,
    [row.out_lock_token],
  );
  return {
    instanceId: row.out_instance_id,
    lockToken: row.out_lock_token,
    attemptCount: row.out_attempt_count,
    leaseLeftMs: Number(lease.rows[0]?.locked_until) - returnedAt,
  };
}

/**
 * Acks a fetched start as the runtime acks a poison message: one OrchestrationFailed event, the
 * execution marked Failed, the messages consumed. Resolves to the error text when the ack fails.
 */
export async function ackAsPoison(
  client: pg.ClientBase,
  schema: string,
  item: FetchedItem,
): Promise<string | undefined> {
  const event = JSON.stringify({
    event_id: 1,
    source_event_id: null,
    instance_id: item.instanceId,
    execution_id: 1,
    timestamp_ms: Date.now(),
    duroxide_version: '0.1.32',
    type: 'OrchestrationFailed',
    details: { Poison: { message_type: 'Orchestration', message: 'poison' } },
  });
  const metadata = {
    orchestration_name: 'Probe',
    orchestration_version: '1.0.0',
    status: 'Failed',
    output: 'poison',
  };
  try {
    await client.query(
      `SELECT "${schema}".ack_orchestration_item($1, $2, 1, $3, '[]', '[]', $4, '[]')`,
      [
        item.lockToken,
        Date.now(),
        JSON.stringify([{ event_id: 1, event_type: 'Event', event_data: event }]),
        JSON.stringify(metadata),
      ],
    );
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Holds an instance's advisory locks in a session of its own until `release` is called. */
export async function holdInstance(
  pool: pg.Pool,
  schema: string,
  instanceId: string,
  keys: 'schema-scoped' | 'both',
): Promise<{ release: () => Promise<void> }> {
  const client = await pool.connect();
  await client.query('BEGIN');
  // The key fetch, ack, renew and abandon take since 0025/0026 ...
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
    schema,
    instanceId,
  ]);
  // ... and the one duroxide-pg's procedures (and ours before 0025) take.
  if (keys === 'both')
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [instanceId]);
  return {
    release: async () => {
      await client.query('COMMIT');
      client.release();
    },
  };
}

/** Rows left in a schema's orchestrator queue. */
export async function queuedMessages(db: pg.Pool, schema: string): Promise<number> {
  const rows = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM "${schema}".orchestrator_queue`,
  );
  return Number(rows.rows[0]?.n);
}
