import { readdirSync, readFileSync } from 'node:fs';
import { decodeEvent, decodeWorkItem, encodeEvent } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

const database = useTestDatabase();

interface HistoryRow {
  instance_id: string;
  execution_id: number;
  event_id: number;
  event_type: string;
  event_data: string;
}
interface QueueRow {
  queue: 'orchestrator_queue' | 'worker_queue';
  work_item: string;
  instance_id: string | null;
  execution_id?: number | null;
  activity_id?: number | null;
  session_id?: string | null;
  tag?: string | null;
}
interface Scenario {
  scenario: string;
  history: HistoryRow[];
  workItems: QueueRow[];
}

const FIXTURES = new URL('./__fixtures__/rust-duroxide-0.1.30/', import.meta.url);
const scenarios: Scenario[] = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as Scenario);

/** The rows of `history` per instance and execution, in event order. */
function executions(history: readonly HistoryRow[]): HistoryRow[][] {
  const byKey = new Map<string, HistoryRow[]>();
  for (const row of [...history].sort(
    (a, b) => a.execution_id - b.execution_id || a.event_id - b.event_id,
  )) {
    const key = `${row.instance_id}\u0000${row.execution_id}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  return [...byKey.values()];
}

/** serde's compact text; PostgreSQL's jsonb rendering has `": "` between key and value. */
const isCompact = (text: string): boolean => !text.includes('": ');

describe.each(scenarios.map((s) => [s.scenario, s] as const))('rows of %s', (_, scenario) => {
  it('a turn acknowledged by PostgresProvider stores history rows byte-identical to duroxide-pg', async () => {
    const provider = await database.newProvider({}, 'rows_history');
    const s = `"${provider.schema}"`;
    for (const rows of executions(scenario.history)) {
      const first = rows[0] as HistoryRow;
      const instance = first.instance_id;
      const known = await provider.listInstances();
      await provider.enqueueForOrchestrator(
        known.includes(instance)
          ? { type: 'ExternalRaised', instance, name: 'next-execution', data: '' }
          : startOrchestration(instance),
        null,
      );
      const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
      expect(fetched?.item.instance).toBe(instance);
      if (fetched === null) return;
      await provider.ackOrchestrationItem(
        fetched.lockToken,
        first.execution_id,
        rows.map((row) => decodeEvent(row.event_data)),
        [],
        [],
        { orchestrationName: 'Replayed', orchestrationVersion: '1.0.0' },
        [],
      );
    }
    const stored = await database.query<HistoryRow>(
      `SELECT instance_id, execution_id::int, event_id::int, event_type, event_data FROM ${s}.history ` +
        'ORDER BY instance_id, execution_id, event_id',
    );
    const expected = [...scenario.history]
      .sort((a, b) =>
        a.instance_id < b.instance_id
          ? -1
          : a.instance_id > b.instance_id
            ? 1
            : a.execution_id - b.execution_id || a.event_id - b.event_id,
      )
      .map(({ instance_id, execution_id, event_id, event_type, event_data }) => ({
        instance_id,
        execution_id,
        event_id,
        event_type,
        event_data,
      }));
    expect(stored).toEqual(expected);

    // And they read back as the same events.
    for (const rows of executions(scenario.history)) {
      const first = rows[0] as HistoryRow;
      const read = await provider.readWithExecution(first.instance_id, first.execution_id);
      expect(read.map(encodeEvent)).toEqual(rows.map((row) => row.event_data));
    }
  });

  it('queue rows written by PostgresProvider are the rows duroxide-pg wrote', async () => {
    const provider = await database.newProvider({}, 'rows_queues');
    const s = `"${provider.schema}"`;
    await provider.enqueueForOrchestrator(startOrchestration('parity-turn'), null);
    const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
    expect(fetched?.item.instance).toBe('parity-turn');
    if (fetched === null) return;
    // Rows the client enqueued (or a worker acknowledged) keep serde's compact text as sent.
    const enqueued = scenario.workItems.filter(
      (w) => w.queue === 'orchestrator_queue' && isCompact(w.work_item),
    );
    for (const row of enqueued) {
      await provider.enqueueForOrchestrator(decodeWorkItem(row.work_item), null);
    }
    // Rows an orchestration turn wrote are stored as jsonb renders them, with routing columns.
    const fromTurns = scenario.workItems.filter((w) => !isCompact(w.work_item));
    await provider.ackOrchestrationItem(
      fetched.lockToken,
      1,
      [],
      fromTurns.filter((w) => w.queue === 'worker_queue').map((w) => decodeWorkItem(w.work_item)),
      fromTurns
        .filter((w) => w.queue === 'orchestrator_queue')
        .map((w) => decodeWorkItem(w.work_item)),
      { orchestrationName: 'Parity', orchestrationVersion: '1.0.0' },
      [],
    );

    const orchestrator = await database.query<{ work_item: string; instance_id: string }>(
      `SELECT work_item, instance_id FROM ${s}.orchestrator_queue ORDER BY id`,
    );
    const expectedOrchestrator = [
      ...enqueued,
      ...fromTurns.filter((w) => w.queue === 'orchestrator_queue'),
    ];
    expect(orchestrator).toEqual(
      expectedOrchestrator.map(({ work_item, instance_id }) => ({ work_item, instance_id })),
    );
    const worker = await database.query(
      `SELECT work_item, instance_id, execution_id::int, activity_id::int, session_id, tag ` +
        `FROM ${s}.worker_queue ORDER BY id`,
    );
    expect(worker).toEqual(
      fromTurns
        .filter((w) => w.queue === 'worker_queue')
        .map(({ work_item, instance_id, execution_id, activity_id, session_id, tag }) => ({
          work_item,
          instance_id,
          execution_id,
          activity_id,
          session_id,
          tag,
        })),
    );
  });
});
