import { createHash } from 'node:crypto';
import type { FetchedOrchestrationItem, FetchedWorkItem, Provider, WorkItem } from '@duro/core';
import { AuditBuffer } from './audit-buffer.js';
import type { AuditLog, ClaimedItem } from './audit-log.js';
import type { AuditQueue, ClaimPath, LockEventKind } from './audit-records.js';
import type { LeaseStats } from './lease-stats.js';
import { providerWithOverrides } from './provider-with-overrides.js';

/** Error texts of a failed acknowledgement whose lock token is no longer valid. */
const LOCK_TOKEN_FAILURES = [
  'Invalid lock token',
  'Worker queue item not found or already processed',
];

/** What the observing wrapper needs from its worker. */
export interface ObserverOptions {
  readonly schema: string;
  readonly worker: string;
  /** The worker process's id: tells its lives apart. */
  readonly life: number;
  readonly audit: AuditLog;
  readonly stats: LeaseStats;
  /** Called with the instance of every orchestration item fetched. */
  readonly onOrchestrationFetched: (instance: string) => void;
  /** Called with every acknowledgement as it is sent, so chaos can kill the process mid-ack. */
  readonly onAckSent: (queue: AuditQueue) => void;
}

/** A provider under observation, and what its observer needs to finish. */
export interface ObservedProvider {
  readonly provider: Provider;
  /** Claims and records the audit log could not take (each one makes the run fail). */
  unobserved(): number;
  /** Writes every buffered record; call before the process exits. */
  close(): Promise<void>;
}

/** Identifies a message across workers and attempts. */
export function workItemKey(item: WorkItem): string {
  if (item.type === 'ActivityExecute') {
    return `${item.instance}/${item.executionId}/activity-${item.id}`;
  }
  return createHash('sha1').update(JSON.stringify(item)).digest('hex').slice(0, 16);
}

function isLockTokenFailure(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return LOCK_TOKEN_FAILURES.some((failure) => text.includes(failure));
}

function failedAckKind(error: unknown): LockEventKind {
  return isLockTokenFailure(error) ? 'ack-lost' : 'ack-error';
}

function workClaim(fetched: FetchedWorkItem): ClaimedItem {
  const { item } = fetched;
  return {
    lockToken: fetched.lockToken,
    instance: 'instance' in item ? item.instance : '',
    session: item.type === 'ActivityExecute' ? (item.sessionId ?? null) : null,
    messageKey: workItemKey(item),
    attempt: fetched.attemptCount,
    activity:
      item.type === 'ActivityExecute'
        ? { executionId: item.executionId, activityId: item.id }
        : null,
  };
}

function orchestrationClaim(fetched: FetchedOrchestrationItem): ClaimedItem {
  return {
    lockToken: fetched.lockToken,
    instance: fetched.item.instance,
    session: null,
    messageKey: fetched.item.messages.map(workItemKey).join(','),
    attempt: fetched.attemptCount,
    activity: null,
  };
}

/**
 * Wraps a worker's provider to record, without changing what it does, everything the invariants
 * judge: every claim on every path (a fetch of one, a batch fetch, and the activities a turn
 * commit hands over) with its lease and visibility read from the store the moment the claim
 * returns and before the runtime sees it; what became of every lock (acknowledged, lost,
 * abandoned, renewed); and every fetch that waited for work, with the room it asked for.
 */
export function observeProvider(inner: Provider, options: ObserverOptions): ObservedProvider {
  const { audit, schema, worker, life, stats } = options;
  const buffer = new AuditBuffer(audit);
  const heldQueue = new Map<string, AuditQueue>();
  let unobserved = 0;

  async function observeClaims(
    queue: AuditQueue,
    path: ClaimPath,
    items: readonly ClaimedItem[],
    lockTimeoutMs: number,
    fetchStartedAtMs: number,
  ): Promise<void> {
    if (items.length === 0) return;
    const claimedAtMs = Date.now();
    for (const item of items) heldQueue.set(item.lockToken, queue);
    try {
      const records = await audit.recordClaims(
        { schema, worker, life, queue, path, lockTimeoutMs, fetchStartedAtMs, claimedAtMs },
        items,
      );
      for (const record of records) {
        const remainingMs =
          record.lockedUntilMs === null ? null : record.lockedUntilMs - claimedAtMs;
        stats.record(queue, remainingMs, lockTimeoutMs, claimedAtMs - fetchStartedAtMs);
      }
    } catch (error) {
      unobserved += items.length;
      console.error(`audit: ${items.length} ${queue} claim(s) went unobserved: ${String(error)}`);
    }
  }

  function noteWait(
    queue: AuditQueue,
    fromMs: number,
    maxItems: number,
    sessionRouting: boolean,
    returned: number,
  ): void {
    buffer.wait({
      schema,
      worker,
      life,
      queue,
      fromMs,
      toMs: Date.now(),
      maxItems,
      sessionRouting,
      returned,
    });
  }

  function noteLock(lockToken: string, kind: LockEventKind, detail = '', lockedUntilMs?: number) {
    const queue = heldQueue.get(lockToken);
    if (queue === undefined) return;
    if (kind !== 'renew') heldQueue.delete(lockToken);
    buffer.event({
      worker,
      life,
      queue,
      lockToken,
      kind,
      atMs: Date.now(),
      lockedUntilMs: lockedUntilMs ?? null,
      detail,
    });
  }

  /** Lets chaos strike while an acknowledgement is on the wire. */
  function ackSent(lockToken: string): void {
    const queue = heldQueue.get(lockToken);
    if (queue !== undefined) options.onAckSent(queue);
  }

  async function observeAck(lockToken: string, ack: () => Promise<void>): Promise<void> {
    ackSent(lockToken);
    try {
      await ack();
    } catch (error) {
      noteLock(lockToken, failedAckKind(error), String(error));
      throw error;
    }
    noteLock(lockToken, 'ack');
  }

  /** Notes each outcome of a batch acknowledgement; a rejected call failed them all. */
  async function observeAcks<Outcome extends { ok: boolean; error?: unknown }>(
    lockTokens: readonly string[],
    acks: () => Promise<Outcome[]>,
  ): Promise<Outcome[]> {
    for (const lockToken of lockTokens) ackSent(lockToken);
    let outcomes: Outcome[];
    try {
      outcomes = await acks();
    } catch (error) {
      for (const lockToken of lockTokens) noteLock(lockToken, failedAckKind(error), String(error));
      throw error;
    }
    outcomes.forEach((outcome, index) => {
      const lockToken = lockTokens[index];
      if (lockToken === undefined) return;
      if (outcome.ok) noteLock(lockToken, 'ack');
      else noteLock(lockToken, failedAckKind(outcome.error), String(outcome.error));
    });
    return outcomes;
  }

  async function renewed(lockToken: string, extendForMs: number, renew: Promise<void>) {
    await renew;
    noteLock(lockToken, 'renew', '', Date.now() + extendForMs);
  }

  async function abandoned(lockToken: string, abandon: Promise<void>): Promise<void> {
    try {
      await abandon;
    } catch (error) {
      noteLock(lockToken, 'abandon-error', String(error));
      throw error;
    }
    noteLock(lockToken, 'abandon');
  }

  function noteOrchestrations(batch: readonly FetchedOrchestrationItem[]): void {
    for (const fetched of batch) options.onOrchestrationFetched(fetched.item.instance);
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
        noteWait('orchestrator', startedAtMs, maxItems, false, batch.length);
        noteOrchestrations(batch);
        await observeClaims(
          'orchestrator',
          'batch',
          batch.map(orchestrationClaim),
          lockTimeoutMs,
          startedAtMs,
        );
        return batch;
      },
    }),
    ...(ackOrchestrationItems !== undefined && {
      async ackOrchestrationItems(acks, claim) {
        const startedAtMs = Date.now();
        const outcomes = await observeAcks(
          acks.map((ack) => ack.lockToken),
          () => ackOrchestrationItems(acks, claim),
        );
        // Activities the commit wrote claimed are this worker's as if it had fetched them.
        const handedOver = outcomes.flatMap((outcome) =>
          outcome.ok ? (outcome.claimedActivities ?? []) : [],
        );
        if (claim !== undefined) {
          await observeClaims(
            'worker',
            'handoff',
            handedOver.map(workClaim),
            claim.lockTimeoutMs,
            startedAtMs,
          );
        }
        return outcomes;
      },
    }),
    ...(fetchWorkItems !== undefined && {
      async fetchWorkItems(lockTimeoutMs, pollTimeoutMs, session, tagFilter, maxItems, maxNew) {
        const startedAtMs = Date.now();
        const batch = await fetchWorkItems(
          lockTimeoutMs,
          pollTimeoutMs,
          session,
          tagFilter,
          maxItems,
          maxNew,
        );
        noteWait('worker', startedAtMs, maxItems, session !== null, batch.length);
        await observeClaims('worker', 'batch', batch.map(workClaim), lockTimeoutMs, startedAtMs);
        return batch;
      },
    }),
    ...(ackWorkItems !== undefined && {
      ackWorkItems(acks) {
        return observeAcks(
          acks.map((ack) => ack.lockToken),
          () => ackWorkItems(acks),
        );
      },
    }),
  };

  const overrides: Partial<Provider> = {
    ...batchOverrides,
    async fetchOrchestrationItem(lockTimeoutMs, pollTimeoutMs, filter) {
      const startedAtMs = Date.now();
      const fetched = await inner.fetchOrchestrationItem(lockTimeoutMs, pollTimeoutMs, filter);
      const batch = fetched === null ? [] : [fetched];
      noteWait('orchestrator', startedAtMs, 1, false, batch.length);
      noteOrchestrations(batch);
      await observeClaims(
        'orchestrator',
        'fetch',
        batch.map(orchestrationClaim),
        lockTimeoutMs,
        startedAtMs,
      );
      return fetched;
    },
    async fetchWorkItem(lockTimeoutMs, pollTimeoutMs, session, tagFilter) {
      const startedAtMs = Date.now();
      const fetched = await inner.fetchWorkItem(lockTimeoutMs, pollTimeoutMs, session, tagFilter);
      const batch = fetched === null ? [] : [fetched];
      noteWait('worker', startedAtMs, 1, session !== null, batch.length);
      await observeClaims('worker', 'fetch', batch.map(workClaim), lockTimeoutMs, startedAtMs);
      return fetched;
    },
    ackOrchestrationItem(lockToken, ...rest) {
      return observeAck(lockToken, () => inner.ackOrchestrationItem(lockToken, ...rest));
    },
    ackWorkItem(lockToken, completion) {
      return observeAck(lockToken, () => inner.ackWorkItem(lockToken, completion));
    },
    abandonOrchestrationItem(lockToken, delayMs, ignoreAttempt) {
      return abandoned(
        lockToken,
        inner.abandonOrchestrationItem(lockToken, delayMs, ignoreAttempt),
      );
    },
    abandonWorkItem(lockToken, delayMs, ignoreAttempt) {
      return abandoned(lockToken, inner.abandonWorkItem(lockToken, delayMs, ignoreAttempt));
    },
    renewOrchestrationItemLock(lockToken, extendForMs) {
      return renewed(
        lockToken,
        extendForMs,
        inner.renewOrchestrationItemLock(lockToken, extendForMs),
      );
    },
    renewWorkItemLock(lockToken, extendForMs) {
      return renewed(lockToken, extendForMs, inner.renewWorkItemLock(lockToken, extendForMs));
    },
  };

  const provider = providerWithOverrides(inner, overrides);
  return {
    provider,
    unobserved: () => unobserved + buffer.lost,
    close: () => buffer.close(),
  };
}
