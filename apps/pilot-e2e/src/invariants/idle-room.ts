import type { FreezeWindow } from '../chaos/chaos-context.js';
import type { AuditTrail, FetchWait } from '../observe/audit-records.js';
import { IntervalUnion, type Interval } from './interval-union.js';

/** When workers had room and waited for work, see {@link idleRoom}. */
export interface IdleRoom {
  /** Per `schema/queue`, the idle spans of every worker. */
  readonly any: ReadonlyMap<string, IntervalUnion>;
  /** Per `schema/worker`, the idle spans of its fetches that routed sessions. */
  readonly routing: ReadonlyMap<string, IntervalUnion>;
  /** Per fetch ({@link fetchKey}), when the earliest work it took became visible. */
  readonly busyFrom: ReadonlyMap<string, number>;
  /** The spans a worker's fetches in flight do not count as idle. */
  readonly notIdle: (worker: string) => Interval[];
}

/** Identifies one fetch call of one worker life (its claims carry its start). */
export function fetchKey(worker: string, life: number, queue: string, startedAtMs: number): string {
  return `${worker}/${life}/${queue}/${startedAtMs}`;
}

/**
 * When workers had room and waited for work: per schema and queue over all workers, and per
 * worker over its fetches that could take session-bound activities; and, per fetch (see
 * {@link fetchKey}), when the earliest work it took became visible. A fetch that returned work
 * counts only until its own work became visible (from then on it was busy claiming it, and a
 * fetch that takes older work first is no stall); one whose claims went unrecorded not at all.
 * Frozen workers, a database that was down, and a worker connecting (after its start or cut
 * connections) are cut out.
 */
export function idleRoom(
  trail: AuditTrail,
  freezes: readonly FreezeWindow[],
  outages: readonly Interval[],
  /** When each worker started or had its connections cut: it connected afresh. */
  connecting: readonly { readonly worker: string; readonly atMs: number }[],
): IdleRoom {
  // The visibility the rows themselves record: the estimates of when work became runnable for
  // its claimer err late, which must not make a fetch that took older work look idle.
  const busyFrom = new Map<string, number>();
  for (const claim of trail.claims) {
    const key = fetchKey(claim.worker, claim.life, claim.queue, claim.fetchStartedAtMs);
    const visibleAtMs = claim.runnableAtMs ?? claim.fetchStartedAtMs;
    busyFrom.set(key, Math.min(busyFrom.get(key) ?? Infinity, visibleAtMs));
  }
  const anyWaits = new Map<string, Interval[]>();
  const routingWaits = new Map<string, Interval[]>();
  const holes = notIdle(trail, freezes, outages, connecting);
  for (const wait of trail.waits) {
    const toMs =
      wait.returned === 0
        ? wait.toMs
        : Math.min(
            wait.toMs,
            busyFrom.get(fetchKey(wait.worker, wait.life, wait.queue, wait.fromMs)) ?? wait.fromMs,
          );
    const pieces = IntervalUnion.of([{ fromMs: wait.fromMs, toMs }]).without(holes(wait.worker));
    const key = `${wait.schema}/${wait.queue}`;
    const list = anyWaits.get(key) ?? [];
    list.push(...pieces.intervals());
    anyWaits.set(key, list);
    if (wait.queue === 'worker' && wait.sessionRouting) {
      const own = `${wait.schema}/${wait.worker}`;
      const routed = routingWaits.get(own) ?? [];
      routed.push(...pieces.intervals());
      routingWaits.set(own, routed);
    }
  }
  const unite = (map: Map<string, Interval[]>) =>
    new Map([...map].map(([key, intervals]) => [key, IntervalUnion.of(intervals)]));
  return { any: unite(anyWaits), routing: unite(routingWaits), busyFrom, notIdle: holes };
}

/**
 * When a worker's fetches were in flight without being idle: while it was frozen, while the
 * server was down, and from its start or the moment its connections were cut until each queue's
 * first fetch since returned (that fetch spent its time connecting).
 */
function notIdle(
  trail: AuditTrail,
  freezes: readonly FreezeWindow[],
  outages: readonly Interval[],
  connecting: readonly { readonly worker: string; readonly atMs: number }[],
): (worker: string) => Interval[] {
  const byWorker = new Map<string, Interval[]>();
  const add = (worker: string, interval: Interval): void => {
    byWorker.set(worker, [...(byWorker.get(worker) ?? []), interval]);
  };
  for (const freeze of freezes) add(freeze.worker, freeze);
  for (const start of connecting) {
    for (const queue of ['orchestrator', 'worker'] as const) {
      const first = trail.waits
        .filter((wait) => wait.worker === start.worker && wait.queue === queue)
        .filter((wait) => wait.toMs >= start.atMs)
        .reduce<FetchWait | undefined>(
          (earliest, wait) =>
            earliest === undefined || wait.toMs < earliest.toMs ? wait : earliest,
          undefined,
        );
      if (first !== undefined) add(start.worker, { fromMs: start.atMs, toMs: first.toMs });
    }
  }
  return (worker) => [...(byWorker.get(worker) ?? []), ...outages];
}
