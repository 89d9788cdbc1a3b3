import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

const database = useTestDatabase();

// Long enough that only a wake-up (never the poll timeout or the safety-net poll) can make these
// fetches return work: a fetch that returns an item was woken by what the test did.
const NEVER_POLL = { idlePollIntervalMs: 120_000 };
const LONG_POLL_MS = 60_000;
const worker = { type: 'DefaultOnly' } as const;

function activity(instance: string) {
  return {
    type: 'ActivityExecute',
    instance,
    executionId: 1,
    id: 1,
    name: 'A',
    input: '{}',
  } as const;
}

/** Resolves once a LISTEN connection of this schema is connected, checking every 20 ms. */
async function listening(schema: string): Promise<void> {
  for (;;) {
    const rows = await database.query(
      `SELECT 1 FROM pg_stat_activity WHERE query = $1 AND state = 'idle'`,
      [`LISTEN duro_work_${schema}`],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('waking idle fetches', () => {
  it('an idle long poll is woken by an enqueue from another provider', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'woken');
    const other = await database.attach(waiting);
    const orchestration = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
    const work = waiting.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await listening(waiting.schema);

    await other.enqueueForOrchestrator(startOrchestration('woken'), null);
    await other.enqueueForWorker(activity('woken'));
    expect((await orchestration)?.item.instance).toBe('woken');
    expect((await work)?.item).toMatchObject({ type: 'ActivityExecute', instance: 'woken' });
  });

  it('a delayed message wakes an idle long poll when it comes due', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'delayed');
    const other = await database.attach(waiting);
    // Scheduled by another process before the fetch waits: known from the database.
    await other.enqueueForOrchestrator(startOrchestration('scheduled-elsewhere'), 300);
    expect((await waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null))?.item.instance).toBe(
      'scheduled-elsewhere',
    );
    // Scheduled by this provider while its fetch waits: known from its own write.
    const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
    await waiting.enqueueForOrchestrator(startOrchestration('scheduled-here'), 300);
    expect((await fetch)?.item.instance).toBe('scheduled-here');
  });

  it('an idle long poll still gets work while its listening connection is down, and after', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'relisten');
    const other = await database.attach(waiting);
    const first = waiting.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await listening(waiting.schema);
    await database.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`,
      [`LISTEN duro_work_${waiting.schema}`],
    );
    await other.enqueueForWorker(activity('while-down'));
    expect((await first)?.item).toMatchObject({ instance: 'while-down' });

    await listening(waiting.schema);
    const second = waiting.fetchWorkItem(30_000, LONG_POLL_MS, null, worker);
    await other.enqueueForWorker(activity('after'));
    expect((await second)?.item).toMatchObject({ instance: 'after' });
  });

  it('closing the provider ends its waiting fetches with nothing', async () => {
    const waiting = await database.newProvider(NEVER_POLL, 'closing');
    const fetch = waiting.fetchOrchestrationItem(30_000, LONG_POLL_MS, null);
    await listening(waiting.schema);
    await waiting.close();
    expect(await fetch).toBeNull();
    await expect(waiting.getQueueDepths()).rejects.toThrow(/the provider is closed/);
  });
});
