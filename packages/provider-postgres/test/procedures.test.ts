// One pass through every procedure a provider calls on the hot path and the management API, at
// the version an older Rust fleet stops at (23) and at the latest. PL/pgSQL checks a body only
// when it runs, so this is what proves the bodies work on the schema they were written for.
import { runMigrations } from '@duro/provider-postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueStart, fetchItem } from './support/orchestration-calls.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();

describe.each([23, 26])('procedures at version %i', (targetVersion) => {
  let schema: string;
  let db: pg.PoolClient;
  const call = async <T extends pg.QueryResultRow>(
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> => (await db.query<T>(sql.replaceAll('$s.', `"${schema}".`), params)).rows;

  beforeAll(async () => {
    schema = scratch.fresh(`procs_${targetVersion}`);
    await runMigrations(scratch.pool, { schema, targetVersion, extensions: false });
    db = await scratch.pool.connect();
  });
  afterAll(() => db.release());

  it('runs an orchestration turn that schedules a tagged session activity, sets state and completes', async () => {
    await enqueueStart(db, schema, 'p-1', Date.now() - 1_000);
    const turn = await fetchItem(db, schema, Date.now(), 30_000);
    expect(turn).toMatchObject({ instanceId: 'p-1', attemptCount: 1 });
    if (!turn) return;
    const activity = {
      ActivityExecute: {
        instance: 'p-1',
        execution_id: 1,
        id: 2,
        name: 'A',
        input: '1',
        session_id: 's-1',
        tag: 'gpu',
      },
    };
    const timer = {
      TimerFired: { instance: 'p-1', execution_id: 1, id: 3, fire_at_ms: Date.now() + 60_000 },
    };
    const metadata = {
      orchestration_name: 'Probe',
      orchestration_version: '1.0.0',
      pinned_duroxide_version: { major: 0, minor: 1, patch: 32 },
      custom_status_action: 'set',
      custom_status_value: 'working',
      kv_mutations: [{ action: 'set', key: 'k', value: 'v1', last_updated_at_ms: 42 }],
    };
    const history = [
      { event_id: 1, event_type: 'Event', event_data: '{"type":"OrchestrationStarted"}' },
    ];
    await call(`SELECT $s.ack_orchestration_item($1, $2, 1, $3, $4, $5, $6, '[]')`, [
      turn.lockToken,
      Date.now(),
      JSON.stringify(history),
      JSON.stringify([activity]),
      JSON.stringify([timer]),
      JSON.stringify(metadata),
    ]);

    expect(await call(`SELECT * FROM $s.get_custom_status('p-1', 0)`)).toEqual([
      { out_custom_status: 'working', out_custom_status_version: '1' },
    ]);
    expect(await call(`SELECT * FROM $s.get_kv_value('p-1', 'k')`)).toEqual([
      { out_value: 'v1', out_found: true },
    ]);
    expect(await call(`SELECT * FROM $s.fetch_history('p-1')`)).toEqual([
      { out_event_data: '{"type":"OrchestrationStarted"}' },
    ]);
    expect(await call(`SELECT * FROM $s.get_queue_depths($1)`, [Date.now()])).toEqual([
      { orchestrator_queue: '0', worker_queue: '1' },
    ]);

    // The activity is tagged: a default worker does not see it, a gpu worker with an owner does.
    expect(
      await call(`SELECT * FROM $s.fetch_work_item($1, 30000, 'w-1', 30000)`, [Date.now()]),
    ).toEqual([]);
    const [work] = await call<{ out_lock_token: string; out_attempt_count: number }>(
      `SELECT * FROM $s.fetch_work_item($1, 30000, 'w-1', 30000, ARRAY['gpu'], 'tags')`,
      [Date.now()],
    );
    expect(work?.out_attempt_count).toBe(1);
    await call(`SELECT $s.renew_work_item_lock($1, $2, 30)`, [work?.out_lock_token, Date.now()]);
    expect(
      await call(`SELECT $s.renew_session_lock(ARRAY['w-1'], $1, 30000, 60000) AS n`, [Date.now()]),
    ).toEqual([{ n: '1' }]);
    const completion = {
      ActivityCompleted: { instance: 'p-1', execution_id: 1, id: 2, result: '"done"' },
    };
    await call(`SELECT $s.ack_worker($1, 'p-1', $2, $3)`, [
      work?.out_lock_token,
      JSON.stringify(completion),
      Date.now(),
    ]);

    const second = await fetchItem(db, schema, Date.now(), 30_000);
    expect(second?.instanceId).toBe('p-1');
    if (!second) return;
    await call(`SELECT $s.renew_orchestration_item_lock($1, $2, 30)`, [
      second.lockToken,
      Date.now(),
    ]);
    const done = {
      ...metadata,
      status: 'Completed',
      output: '"ok"',
      custom_status_action: null,
      kv_mutations: [],
    };
    await call(`SELECT $s.ack_orchestration_item($1, $2, 1, '[]', '[]', '[]', $3)`, [
      second.lockToken,
      Date.now(),
      JSON.stringify(done),
    ]);

    expect(
      await call(`SELECT instance_id, status, output FROM $s.get_instance_info('p-1')`),
    ).toEqual([{ instance_id: 'p-1', status: 'Completed', output: '"ok"' }]);
    const [stats] = await call<{ out_found: boolean; out_kv_user_key_count: string }>(
      `SELECT * FROM $s.get_instance_stats('p-1')`,
    );
    expect(stats).toMatchObject({ out_found: true, out_kv_user_key_count: '1' });
    expect(await call(`SELECT * FROM $s.get_kv_all_values('p-1')`)).toEqual([
      { out_key: 'k', out_value: 'v1' },
    ]);
    expect(
      await call(`SELECT $s.cleanup_orphaned_sessions($1) AS n`, [Date.now() + 120_000]),
    ).toEqual([{ n: '1' }]);
  });

  it('abandons with and without delay, and deletes and prunes instances', async () => {
    // The timer the first turn scheduled would come due before the delayed abandon below.
    await call(`DELETE FROM $s.orchestrator_queue WHERE instance_id = 'p-1'`);
    await enqueueStart(db, schema, 'p-2', Date.now() - 1_000);
    const turn = await fetchItem(db, schema, Date.now(), 30_000);
    expect(turn?.instanceId).toBe('p-2');
    expect(
      await call(`SELECT $s.abandon_orchestration_item($1, $2, 60000, true) AS id`, [
        turn?.lockToken,
        Date.now(),
      ]),
    ).toEqual([{ id: 'p-2' }]);
    expect(await fetchItem(db, schema, Date.now(), 30_000)).toBeUndefined();
    const later = await fetchItem(db, schema, Date.now() + 61_000, 30_000);
    expect(later).toMatchObject({ instanceId: 'p-2', attemptCount: 1 });

    await call(`SELECT $s.enqueue_worker_work($1, $2, 'p-2', 1, 5)`, [
      JSON.stringify({
        ActivityExecute: { instance: 'p-2', execution_id: 1, id: 5, name: 'B', input: '' },
      }),
      Date.now(),
    ]);
    const [work] = await call<{ out_lock_token: string }>(
      `SELECT * FROM $s.fetch_work_item($1, 30000)`,
      [Date.now()],
    );
    await call(`SELECT $s.abandon_work_item($1, $2)`, [work?.out_lock_token, Date.now()]);

    expect(await call(`SELECT * FROM $s.list_children('p-1')`)).toEqual([]);
    expect(await call(`SELECT $s.get_parent_id('p-1') AS parent`)).toEqual([{ parent: null }]);
    expect(await call(`SELECT * FROM $s.prune_executions('p-1', 1)`)).toEqual([
      { instances_processed: '1', executions_deleted: '0', events_deleted: '0' },
    ]);
    const [deleted] = await call<{ instances_deleted: string; events_deleted: string }>(
      `SELECT * FROM $s.delete_instances_atomic(ARRAY['p-1'], false)`,
    );
    expect(deleted).toMatchObject({ instances_deleted: '1', events_deleted: '1' });
    expect(await call(`SELECT * FROM $s.get_system_metrics()`)).toEqual([
      {
        total_instances: '0',
        total_executions: '0',
        running_instances: '0',
        completed_instances: '0',
        failed_instances: '0',
        total_events: '0',
      },
    ]);
  });

  it('an ack with a token another fetch has replaced fails and commits nothing', async () => {
    await enqueueStart(db, schema, 'p-3', Date.now() - 1_000);
    const first = await fetchItem(db, schema, Date.now(), 1_000);
    // A caller whose clock runs 10 s ahead sees the lease as expired and takes the instance over.
    const takeover = await fetchItem(db, schema, Date.now() + 10_000, 30_000);
    expect(takeover?.instanceId).toBe('p-3');
    await expect(
      call(`SELECT $s.ack_orchestration_item($1, $2, 1, '[]', '[]', '[]', '{}')`, [
        first?.lockToken,
        Date.now(),
      ]),
    ).rejects.toThrow('Invalid lock token');
    await expect(
      call(`SELECT $s.renew_orchestration_item_lock($1, $2, 30)`, [first?.lockToken, Date.now()]),
    ).rejects.toThrow('Lock token invalid, expired, or already released');
  });
});
