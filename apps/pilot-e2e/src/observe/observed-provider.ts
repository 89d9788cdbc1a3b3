import { createHash } from 'node:crypto';
import type { FetchedOrchestrationItem, FetchedWorkItem, Provider, WorkItem } from '@duro/core';
import type { AuditLog, AuditQueue, AuditRecord } from './audit-log.js';
import type { LeaseStats } from './lease-stats.js';

/** Error texts of a failed acknowledgement whose lock token is no longer valid. */
const LOCK_TOKEN_FAILURES = [
  'Invalid lock token',
  'Worker queue item not found or already processed',
];

/** What the observing wrapper needs from its worker. */
export interface ObserverOptions {
  readonly schema: string;
  readonly worker: string;
  readonly audit: AuditLog;
  readonly stats: LeaseStats;
  /** Called with the instance of every orchestration item fetched. */
  readonly onOrchestrationFetched: (instance: string) => void;
  /** Called with every acknowledgement as it is sent, so chaos can kill the process mid-ack. */
  readonly onAckSent: (queue: AuditQueue) => void;
}

interface HeldLock {
  readonly queue: AuditQueue;
  readonly instance: string;
  readonly messageKeys: readonly string[];
}

function workItemKey(item: WorkItem): string {
  if (item.type === 'ActivityExecute') {
    return `${item.instance}/${item.executionId}/activity-${item.id}`;
  }
  return createHash('sha1').update(JSON.stringify(item)).digest('hex').slice(0, 16);
}

function isLockTokenFailure(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return LOCK_TOKEN_FAILURES.some((failure) => text.includes(failure));
}

/**
 * Wraps a worker's provider to watch what the invariants need, without changing what it does:
 * the remaining lease of every fetched item (read from the lock row right after the fetch and
 * before the runtime sees the item), acknowledgements that fail on an invalid lock token, and
 * redeliveries. Anomalies are written to the audit log before the call returns.
 */
export function observeProvider(inner: Provider, options: ObserverOptions): Provider {
  const held = new Map<string, HeldLock>();
  const { audit, schema, worker, stats } = options;

  const record = (entry: Omit<AuditRecord, 'schema' | 'worker'>): Promise<void> =>
    audit.record({ ...entry, schema, worker });

  async function observeFetch(
    queue: AuditQueue,
    lockToken: string,
    instance: string,
    messageKeys: readonly string[],
    attemptCount: number,
    lockTimeoutMs: number,
    startedAtMs: number,
  ): Promise<void> {
    const handedOutAtMs = Date.now();
    held.set(lockToken, { queue, instance, messageKeys });
    let lockedUntil: number | null;
    try {
      lockedUntil = await audit.lockedUntil(schema, queue, lockToken);
    } catch {
      // The audit connection failing must not fail the fetch: this one goes unobserved.
      return;
    }
    const remainingMs = lockedUntil === null ? null : lockedUntil - handedOutAtMs;
    stats.record(queue, remainingMs, lockTimeoutMs, handedOutAtMs - startedAtMs);
    const messageKey = messageKeys.join(',');
    const endedAtMs = Date.now();
    if (remainingMs === null || remainingMs <= 0) {
      await record({
        kind: 'expired-lease',
        queue,
        instance,
        messageKey,
        value: remainingMs,
        startedAtMs,
        endedAtMs,
        detail: `lock timeout ${lockTimeoutMs} ms, fetch took ${handedOutAtMs - startedAtMs} ms`,
      });
    }
    if (attemptCount > 1) {
      await record({
        kind: 'redelivery',
        queue,
        instance,
        messageKey,
        value: attemptCount,
        startedAtMs,
        endedAtMs,
        detail: '',
      });
    }
  }

  /** Forgets a lock as its acknowledgement is sent, and lets chaos strike mid-ack. */
  function ackSent(lockToken: string): HeldLock | undefined {
    const lock = held.get(lockToken);
    held.delete(lockToken);
    if (lock !== undefined) options.onAckSent(lock.queue);
    return lock;
  }

  async function noteAckFailure(
    lock: HeldLock | undefined,
    error: unknown,
    startedAtMs: number,
  ): Promise<void> {
    if (lock === undefined || !isLockTokenFailure(error)) return;
    for (const messageKey of lock.messageKeys) {
      await record({
        kind: 'lock-token-ack-failure',
        queue: lock.queue,
        instance: lock.instance,
        messageKey,
        value: null,
        startedAtMs,
        endedAtMs: Date.now(),
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }

  async function observeAck(lockToken: string, ack: Promise<void>): Promise<void> {
    const lock = ackSent(lockToken);
    const startedAtMs = Date.now();
    try {
      await ack;
    } catch (error) {
      await noteAckFailure(lock, error, startedAtMs);
      throw error;
    }
  }

  async function observeWorkFetch(
    fetched: FetchedWorkItem,
    lockTimeoutMs: number,
    startedAtMs: number,
  ): Promise<void> {
    if (fetched.item.type !== 'ActivityExecute') return;
    const { item, lockToken, attemptCount } = fetched;
    await observeFetch(
      'worker',
      lockToken,
      item.instance,
      [workItemKey(item)],
      attemptCount,
      lockTimeoutMs,
      startedAtMs,
    );
  }

  async function observeOrchestrationFetch(
    fetched: FetchedOrchestrationItem,
    lockTimeoutMs: number,
    startedAtMs: number,
  ): Promise<void> {
    const { item, lockToken, attemptCount } = fetched;
    options.onOrchestrationFetched(item.instance);
    await observeFetch(
      'orchestrator',
      lockToken,
      item.instance,
      item.messages.map(workItemKey),
      attemptCount,
      lockTimeoutMs,
      startedAtMs,
    );
  }

  // The batched methods are optional: they are observed only when the inner provider has them,
  // so a runtime over a provider without them still falls back to one at a time.
  const fetchWorkItems = inner.fetchWorkItems?.bind(inner);
  const ackWorkItems = inner.ackWorkItems?.bind(inner);
  const fetchOrchestrationItems = inner.fetchOrchestrationItems?.bind(inner);
  const ackOrchestrationItems = inner.ackOrchestrationItems?.bind(inner);
  const batchOverrides: Partial<Provider> = {
    ...(fetchOrchestrationItems !== undefined && {
      async fetchOrchestrationItems(lockTimeoutMs, pollTimeoutMs, filter, maxItems) {
        const startedAtMs = Date.now();
        const batch = await fetchOrchestrationItems(lockTimeoutMs, pollTimeoutMs, filter, maxItems);
        for (const fetched of batch) {
          await observeOrchestrationFetch(fetched, lockTimeoutMs, startedAtMs);
        }
        return batch;
      },
    }),
    ...(ackOrchestrationItems !== undefined && {
      async ackOrchestrationItems(acks, claim) {
        const locks = acks.map(({ lockToken }) => ackSent(lockToken));
        const startedAtMs = Date.now();
        const outcomes = await ackOrchestrationItems(acks, claim);
        for (const [index, outcome] of outcomes.entries()) {
          if (!outcome.ok) await noteAckFailure(locks[index], outcome.error, startedAtMs);
          // Activities the commit wrote claimed are this worker's as if it had fetched them.
          else if (claim !== undefined) {
            for (const fetched of outcome.claimedActivities ?? []) {
              await observeWorkFetch(fetched, claim.lockTimeoutMs, startedAtMs);
            }
          }
        }
        return outcomes;
      },
    }),
    ...(fetchWorkItems !== undefined && {
      async fetchWorkItems(lockTimeoutMs, pollTimeoutMs, session, tagFilter, ...limits) {
        const startedAtMs = Date.now();
        const batch = await fetchWorkItems(
          lockTimeoutMs,
          pollTimeoutMs,
          session,
          tagFilter,
          ...limits,
        );
        for (const fetched of batch) await observeWorkFetch(fetched, lockTimeoutMs, startedAtMs);
        return batch;
      },
    }),
    ...(ackWorkItems !== undefined && {
      async ackWorkItems(acks) {
        const locks = acks.map(({ lockToken }) => ackSent(lockToken));
        const startedAtMs = Date.now();
        const outcomes = await ackWorkItems(acks);
        for (const [index, outcome] of outcomes.entries()) {
          if (!outcome.ok) await noteAckFailure(locks[index], outcome.error, startedAtMs);
        }
        return outcomes;
      },
    }),
  };

  const overrides: Partial<Provider> = {
    ...batchOverrides,
    async fetchOrchestrationItem(lockTimeoutMs, pollTimeoutMs, filter) {
      const startedAtMs = Date.now();
      const fetched = await inner.fetchOrchestrationItem(lockTimeoutMs, pollTimeoutMs, filter);
      if (fetched !== null) await observeOrchestrationFetch(fetched, lockTimeoutMs, startedAtMs);
      return fetched;
    },
    async fetchWorkItem(lockTimeoutMs, pollTimeoutMs, session, tagFilter) {
      const startedAtMs = Date.now();
      const fetched = await inner.fetchWorkItem(lockTimeoutMs, pollTimeoutMs, session, tagFilter);
      if (fetched !== null) await observeWorkFetch(fetched, lockTimeoutMs, startedAtMs);
      return fetched;
    },
    ackOrchestrationItem(lockToken, ...rest) {
      return observeAck(lockToken, inner.ackOrchestrationItem(lockToken, ...rest));
    },
    ackWorkItem(lockToken, completion) {
      return observeAck(lockToken, inner.ackWorkItem(lockToken, completion));
    },
    abandonOrchestrationItem(lockToken, delayMs, ignoreAttempt) {
      held.delete(lockToken);
      return inner.abandonOrchestrationItem(lockToken, delayMs, ignoreAttempt);
    },
    abandonWorkItem(lockToken, delayMs, ignoreAttempt) {
      held.delete(lockToken);
      return inner.abandonWorkItem(lockToken, delayMs, ignoreAttempt);
    },
  };

  return new Proxy(inner, {
    get(target, property, receiver) {
      const override = overrides[property as keyof Provider];
      if (override !== undefined) return override;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
