import { Client, Runtime, type RuntimeOptions } from '@duro/duroxide';
import { afterEach, describe, expect, it } from 'vitest';
import { useStores } from './support/stores.js';

const stores = useStores();
const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown(1_000)));
});

const quiet: RuntimeOptions = { dispatcherPollIntervalMs: 10, logLevel: 'silent' };

/** A started runtime on `provider`, shut down after the test. */
async function started(
  provider: ConstructorParameters<typeof Runtime>[0],
  register: (runtime: Runtime) => void,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const runtime = new Runtime(provider, { ...quiet, ...options });
  register(runtime);
  await runtime.start();
  runtimes.push(runtime);
  return runtime;
}

describe.each(stores)("duroxide-node's result shapes on $label", (store) => {
  it('getInstanceTree resolves to { rootId, allIds, size }, size counting the ids', async () => {
    const provider = await store.open();
    const runtime = await started(provider, (rt) => {
      rt.registerOrchestration('Leaf', function* (ctx, n: number) {
        yield ctx.scheduleTimer(1);
        return n;
      });
      rt.registerOrchestration('Root', function* (ctx) {
        return yield* ctx.all([
          ctx.scheduleSubOrchestrationWithId('Leaf', 'tree-leaf-1', 1),
          ctx.scheduleSubOrchestrationWithId('Leaf', 'tree-leaf-2', 2),
        ]);
      });
    });
    const client = new Client(provider);
    await client.startOrchestration('tree', 'Root');
    await client.waitForOrchestration('tree', 30_000);

    const tree = await client.getInstanceTree('tree');
    expect(Object.keys(tree)).toEqual(['rootId', 'allIds', 'size']);
    expect(tree.rootId).toBe('tree');
    expect([...tree.allIds].sort()).toEqual(['tree', 'tree-leaf-1', 'tree-leaf-2']);
    expect(tree.allIds[0]).toBe('tree');
    expect(tree.size).toBe(3);
    expect(runtime.metricsSnapshot().suborchestrationCalls).toBe(2);
  });

  it('readExecutionHistory gives data as duroxide-node splices it, and every data parses', async () => {
    const provider = await store.open();
    await started(provider, (rt) => {
      rt.registerActivity('Greet', async (_ctx, who: { name: string }) => ({
        greeting: `hello ${who.name}`,
      }));
      rt.registerOrchestration('Shapes', function* (ctx, who: { name: string }) {
        const greeting: unknown = yield ctx.scheduleActivity('Greet', who);
        ctx.setCustomStatus('waiting');
        const approval: unknown = yield ctx.waitForEvent('Approve');
        const id = yield* ctx.newGuid();
        return { greeting, approval, idLength: id.length };
      });
    });
    const client = new Client(provider);
    await client.startOrchestration('shapes', 'Shapes', { name: 'ada' });
    await client.waitForStatusChange('shapes', 0, 10, 30_000);
    await client.raiseEvent('shapes', 'Approve', { ok: true });
    await client.waitForOrchestration('shapes', 30_000);

    const history = await client.readExecutionHistory('shapes', 1);
    const parsed = history.map((event) => ({
      kind: event.kind,
      data: event.data === undefined ? undefined : (JSON.parse(event.data) as unknown),
    }));
    expect(parsed.map((event) => event.kind)).toEqual([
      'OrchestrationStarted',
      'ActivityScheduled',
      'ActivityCompleted',
      'CustomStatusUpdated',
      'ExternalSubscribed',
      'ExternalEvent',
      'ActivityScheduled',
      'ActivityCompleted',
      'OrchestrationCompleted',
    ]);
    const [
      startedEvent,
      scheduled,
      completed,
      statusSet,
      subscribed,
      raised,
      guidScheduled,
      ,
      ended,
    ] = parsed;
    expect(startedEvent?.data).toEqual({
      name: 'Shapes',
      version: '1.0.0',
      input: { name: 'ada' },
    });
    expect(scheduled?.data).toEqual({ name: 'Greet', input: { name: 'ada' } });
    expect(completed?.data).toEqual({ greeting: 'hello ada' });
    expect(statusSet?.data).toBeUndefined();
    expect(subscribed?.data).toEqual({ name: 'Approve' });
    expect(raised?.data).toEqual({ name: 'Approve', data: { ok: true } });
    // duroxide-node writes `"input":}` here, which does not parse.
    expect(guidScheduled?.data).toEqual({ name: '__duroxide_syscall:new_guid', input: '' });
    expect(ended?.data).toEqual({
      greeting: { greeting: 'hello ada' },
      approval: { ok: true },
      idLength: 36,
    });
    for (const event of history) {
      expect(Object.keys(event).filter((key) => key !== 'event')).toEqual(
        expect.arrayContaining(['eventId', 'kind', 'timestampMs']),
      );
      expect(typeof event.eventId).toBe('number');
      expect(typeof event.timestampMs).toBe('number');
    }
    expect(history[2]?.sourceEventId).toBe(history[1]?.eventId);
  });

  it('withTag returns the descriptor it tagged, and the tag routes the activity', async () => {
    const provider = await store.open();
    let same: boolean | undefined;
    await started(
      provider,
      (rt) => {
        rt.registerActivity('Where', async (ctx) => ctx.tag());
        rt.registerOrchestration('Tagged', function* (ctx) {
          const descriptor = ctx.scheduleActivity('Where', null);
          same = descriptor.withTag('gpu') === descriptor;
          return yield* descriptor;
        });
      },
      { workerTagFilter: 'tags', workerTagFilterTags: ['gpu'] },
    );
    const client = new Client(provider);
    await client.startOrchestration('tagged', 'Tagged');
    expect((await client.waitForOrchestration('tagged', 30_000)).output).toBe('gpu');
    expect(same).toBe(true);
  });

  it('deleteInstanceBulk, pruneExecutions and pruneExecutionsBulk work without their optional arguments', async () => {
    const provider = await store.open();
    await started(provider, (rt) => {
      rt.registerOrchestration('Loop', function* (ctx, n: number) {
        if (n < 2) return yield* ctx.continueAsNew(n + 1);
        return n;
      });
    });
    const client = new Client(provider);
    for (const id of ['loop-a', 'loop-b']) {
      await client.startOrchestration(id, 'Loop', 0);
      await client.waitForOrchestration(id, 30_000);
    }
    expect(await client.listExecutions('loop-a')).toEqual([1, 2, 3]);

    const one = await client.pruneExecutions('loop-a');
    expect(one).toEqual({
      instancesProcessed: 1,
      executionsDeleted: 2,
      eventsDeleted: one.eventsDeleted,
    });
    expect(one.eventsDeleted).toBeGreaterThan(0);
    expect(await client.listExecutions('loop-a')).toEqual([3]);

    const bulk = await client.pruneExecutionsBulk();
    expect(bulk.instancesProcessed).toBeGreaterThanOrEqual(2);
    expect(bulk.executionsDeleted).toBeGreaterThanOrEqual(2);
    expect(await client.listExecutions('loop-b')).toEqual([3]);

    const deleted = await client.deleteInstanceBulk();
    expect(Object.keys(deleted).sort()).toEqual([
      'eventsDeleted',
      'executionsDeleted',
      'instancesDeleted',
      'queueMessagesDeleted',
    ]);
    expect(deleted.instancesDeleted).toBeGreaterThanOrEqual(2);
    expect(await client.listExecutions('loop-a')).toEqual([]);
  });

  it("metricsSnapshot has duroxide-node's activityConfigErrors, suborchestrationCalls and providerErrors", async () => {
    const provider = await store.open();
    const runtime = await started(
      provider,
      (rt) => {
        rt.registerOrchestration('CallsMissing', function* (ctx) {
          return yield* ctx.scheduleActivity('NotRegistered', null);
        });
      },
      { unregisteredBackoff: { baseDelayMs: 10, maxDelayMs: 10 } },
    );
    await new Client(provider).startOrchestration('missing', 'CallsMissing');
    for (
      let tries = 0;
      tries < 500 && runtime.metricsSnapshot().activityConfigErrors < 1;
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const snapshot = runtime.metricsSnapshot();
    expect(snapshot.activityConfigErrors).toBeGreaterThanOrEqual(1);
    expect(snapshot.suborchestrationCalls).toBe(0);
    expect(snapshot.providerErrors).toBe(0);
  });
});
