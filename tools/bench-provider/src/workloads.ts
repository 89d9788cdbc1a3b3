import {
  encodeWorkItem,
  type Event,
  type EventKind,
  type Provider,
  type WorkItem,
} from '@duro/core';
import type { PostgresProvider } from '@duro/provider-postgres';
import type pg from 'pg';

/** One kind of queue item, with how to fill a queue with it and how to process one. */
export interface Workload {
  /** Shown in the results. */
  readonly name: string;
  /** Enqueues `count` items numbered from `first`, in one statement. */
  fill(pool: pg.Pool, provider: PostgresProvider, first: number, count: number): Promise<void>;
  /** Fetches one item and acknowledges it; `false` when there was none. */
  fetchAndAck(provider: Provider): Promise<boolean>;
}

const LOCK_TIMEOUT_MS = 30_000;

function event(instance: string, eventId: number, kind: EventKind): Event {
  return {
    eventId,
    sourceEventId: null,
    instanceId: instance,
    executionId: 1,
    timestampMs: Date.now(),
    duroxideVersion: '0.1.32',
    kind,
  };
}

const startOf = (instance: string): WorkItem => ({
  type: 'StartOrchestration',
  instance,
  orchestration: 'Bench',
  input: '{"n":1}',
  version: '1.0.0',
  parentInstance: null,
  parentId: null,
  executionId: 1,
});

const activityOf = (instance: string): WorkItem => ({
  type: 'ActivityExecute',
  instance,
  executionId: 1,
  id: 2,
  name: 'Echo',
  input: '{"n":1}',
});

const instanceIds = (first: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `bench-${first + i}`);

/**
 * A first orchestration turn that completes at once: the fetch claims a new instance, the ack
 * creates its instance and execution rows, appends two history events and deletes the message.
 */
export const orchestrationItems: Workload = {
  name: 'orchestration items',
  async fill(pool, provider, first, count) {
    const ids = instanceIds(first, count);
    // clock_timestamp(), not now(): distinct visible_at values, as separate enqueues have. The
    // fetch takes the oldest by (visible_at, id), and thousands of equal times would make every
    // fetch sort them all.
    await pool.query(
      `SELECT "${provider.schema}".enqueue_orchestrator_work(i, w, clock_timestamp(), NULL, NULL, NULL) ` +
        'FROM unnest($1::text[], $2::text[]) AS t(i, w)',
      [ids, ids.map((id) => encodeWorkItem(startOf(id)))],
    );
  },
  async fetchAndAck(provider) {
    const fetched = await provider.fetchOrchestrationItem(LOCK_TIMEOUT_MS, 0, null);
    if (fetched === null) return false;
    const instance = fetched.item.instance;
    await provider.ackOrchestrationItem(
      fetched.lockToken,
      1,
      [
        event(instance, 1, {
          type: 'OrchestrationStarted',
          name: 'Bench',
          version: '1.0.0',
          input: '{"n":1}',
          parentInstance: null,
          parentId: null,
        }),
        event(instance, 2, { type: 'OrchestrationCompleted', output: '"done"' }),
      ],
      [],
      [],
      {
        orchestrationName: 'Bench',
        orchestrationVersion: '1.0.0',
        status: 'Completed',
        output: '"done"',
      },
      [],
    );
    return true;
  },
};

/** An activity: the fetch claims it, the ack deletes it and enqueues its completion. */
export const workItems: Workload = {
  name: 'work items',
  async fill(pool, provider, first, count) {
    const ids = instanceIds(first, count);
    await pool.query(
      `SELECT "${provider.schema}".enqueue_worker_work(w, $3, i, 1, 2, NULL, NULL) ` +
        'FROM unnest($1::text[], $2::text[]) AS t(i, w)',
      [ids, ids.map((id) => encodeWorkItem(activityOf(id))), Date.now()],
    );
  },
  async fetchAndAck(provider) {
    const fetched = await provider.fetchWorkItem(LOCK_TIMEOUT_MS, 0, null, { type: 'DefaultOnly' });
    if (fetched === null) return false;
    const item = fetched.item;
    if (item.type !== 'ActivityExecute')
      throw new Error(`unexpected ${item.type} in the worker queue`);
    await provider.ackWorkItem(fetched.lockToken, {
      type: 'ActivityCompleted',
      instance: item.instance,
      executionId: item.executionId,
      id: item.id,
      result: '"ok"',
    });
    return true;
  },
};
