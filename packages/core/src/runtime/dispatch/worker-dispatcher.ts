import type { ActivityClaim } from '../../provider/activity-claim.js';
import type { FetchedWorkItem } from '../../provider/orchestration-item.js';
import type { SessionFetchConfig } from '../../provider/fetch-filters.js';
import type { Provider } from '../../provider/provider.js';
import { withLogFields } from '../logger.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES } from '../runtime-tracing.js';
import { runActivity, type ActivityDependencies } from './activity-execution.js';
import { BatchSlot } from './batch-slot.js';
import { SerialFetches } from './serial-fetches.js';
import { runSlot } from './slot-loop.js';
import { fetchUnlessStopped, sleepUnlessStopped } from './stoppable-wait.js';
import { WorkItemAcks } from './work-item-acks.js';

/** Counts the distinct sessions this runtime serves (duroxide's `SessionTracker`). */
class SessionTracker {
  private readonly counts = new Map<string, number>();

  get distinct(): number {
    return this.counts.size;
  }

  enter(sessionId: string): void {
    this.counts.set(sessionId, (this.counts.get(sessionId) ?? 0) + 1);
  }

  leave(sessionId: string): void {
    const count = (this.counts.get(sessionId) ?? 1) - 1;
    if (count <= 0) this.counts.delete(sessionId);
    else this.counts.set(sessionId, count);
  }
}

/**
 * How the orchestration side hands the worker the activities its turn commits wrote claimed
 * for it (`Provider.ackOrchestrationItems` with an {@link ActivityClaim}).
 * @internal
 */
export interface ActivityHandoff {
  /**
   * Holds room for up to `wanted` activities for one commit; `null` when the worker has none.
   * The ticket must be settled with `adopt` once the commit has returned or failed.
   */
  reserve(wanted: number): HandoffTicket | null;
}

/** Room held for one commit's claim. @internal */
export interface HandoffTicket {
  readonly claim: ActivityClaim;
  /** Gives the room back and runs the activities the commit claimed (none when it failed). */
  adopt(activities: readonly FetchedWorkItem[]): void;
}

/**
 * The worker side of a runtime, as duroxide's worker dispatcher: `workerConcurrency` slots each
 * fetch activities (with session routing while under `maxSessionsPerRuntime`, and the tag
 * filter), and a session manager renews owned sessions and sweeps orphaned ones. When the
 * provider can claim batches and `workerBatchSize` is above 1, a slot keeps up to that many
 * activities running, claiming as many as it has room for in one fetch, and also runs the
 * activities turn commits claim for it (see {@link ActivityHandoff}); otherwise it runs one at a
 * time, as duroxide does.
 * @internal
 */
export class WorkerDispatcher implements ActivityHandoff {
  private readonly sessions = new SessionTracker();
  private readonly acks: WorkItemAcks;
  private readonly batchFetches: SerialFetches;
  private readonly batchSlots: BatchSlot[] = [];

  constructor(
    private readonly deps: Omit<ActivityDependencies, 'acknowledge'>,
    private readonly runtimeId: string,
    private readonly stop: AbortSignal,
  ) {
    this.acks = new WorkItemAcks(deps.provider);
    this.batchFetches = new SerialFetches(stop);
  }

  /** Starts every slot and the session manager; resolves when all have stopped. */
  run(): Promise<void>[] {
    const { options, provider } = this.deps;
    if (options.workerTagFilter.type === 'None') return [];
    const fetchWorkItems = provider.fetchWorkItems?.bind(provider);
    const owners = new Set<string>();
    const loops: Promise<void>[] = [];
    for (let slot = 0; slot < options.workerConcurrency; slot += 1) {
      const workerId = `work-${slot}-${options.workerNodeId ?? this.runtimeId}`;
      const owner = options.workerNodeId ?? workerId;
      owners.add(owner);
      loops.push(
        fetchWorkItems !== undefined && options.workerBatchSize > 1
          ? this.runBatchSlot(fetchWorkItems, workerId, owner)
          : runSlot(
              this.stop,
              options.dispatcherPollIntervalMs,
              this.deps.logger,
              'fetch_work_item',
              () => this.next(workerId, owner),
            ),
      );
    }
    if (loops.length > 0) loops.push(this.manageSessions([...owners]));
    return loops;
  }

  /** Session routing for the next fetch: none once this runtime serves its most sessions. */
  private sessionRouting(owner: string): SessionFetchConfig | null {
    const { options } = this.deps;
    return this.sessions.distinct >= options.maxSessionsPerRuntime
      ? null
      : { ownerId: owner, lockTimeoutMs: options.sessionLockTimeoutMs };
  }

  private async next(workerId: string, owner: string): Promise<boolean> {
    const { options, provider } = this.deps;
    const fetched = await fetchUnlessStopped(
      provider.fetchWorkItem(
        options.workerLockTimeoutMs,
        options.dispatcherLongPollTimeoutMs,
        this.sessionRouting(owner),
        options.workerTagFilter,
      ),
      this.stop,
      (late) => this.giveBack(late ? [late] : []),
    );
    if (!fetched?.value) return false;
    await this.process(fetched.value, workerId);
    return true;
  }

  /**
   * A slot that keeps up to `workerBatchSize` activities running: when it has room it claims
   * as many as fit in one fetch and starts them all; when it is full it waits for room, which an
   * activity gives back once its acknowledgement is sent (not committed). The
   * slots' fetches take turns (see {@link SerialFetches}). A fetch waiting for work does not hold
   * the room it asked for, so activities handed over meanwhile can take it and the slot then
   * runs more than `workerBatchSize` for a while.
   * It resolves once stopped and every activity it started has finished.
   */
  private async runBatchSlot(
    fetchWorkItems: NonNullable<Provider['fetchWorkItems']>,
    workerId: string,
    owner: string,
  ): Promise<void> {
    const { options, logger } = this.deps;
    const slot = new BatchSlot(workerId, options.workerBatchSize);
    this.batchSlots.push(slot);
    await runSlot(
      this.stop,
      options.dispatcherPollIntervalMs,
      logger,
      'fetch_work_items',
      async () => {
        await slot.untilFetchRoom();
        if (this.stop.aborted) return false;
        const fetched = await fetchUnlessStopped(
          this.batchFetches.run(() => {
            // Read when this slot's turn to fetch comes: other slots' fetches may have
            // started sessions meanwhile, and commits may have handed activities here.
            const session = this.sessionRouting(owner);
            const maxNewSessions =
              session === null ? 0 : options.maxSessionsPerRuntime - this.sessions.distinct;
            return fetchWorkItems(
              options.workerLockTimeoutMs,
              options.dispatcherLongPollTimeoutMs,
              session,
              options.workerTagFilter,
              Math.max(1, slot.fetchRoom),
              maxNewSessions,
            );
          }, []),
          this.stop,
          (late) => this.giveBack(late),
        );
        if (!fetched || fetched.value.length === 0) return false;
        for (const item of fetched.value) this.startIn(slot, item);
        return true;
      },
    );
    await slot.drained();
  }

  /** Starts one activity in a batch slot. */
  private startIn(slot: BatchSlot, fetched: FetchedWorkItem): void {
    slot.run((finished) =>
      this.process(fetched, slot.workerId, finished).catch((error: unknown) => {
        this.deps.logger.warn({ error: String(error) }, 'Error in fetch_work_items');
      }),
    );
  }

  reserve(wanted: number): HandoffTicket | null {
    if (this.stop.aborted) return null;
    const held: { slot: BatchSlot; room: number }[] = [];
    let left = wanted;
    for (const slot of this.batchSlots) {
      if (left === 0) break;
      const room = slot.reserveRoom(left);
      if (room > 0) held.push({ slot, room });
      left -= room;
    }
    if (held.length === 0) return null;
    const { options } = this.deps;
    let settled = false;
    return {
      claim: {
        maxItems: wanted - left,
        lockTimeoutMs: options.workerLockTimeoutMs,
        tagFilter: options.workerTagFilter,
      },
      adopt: (activities) => {
        if (settled) throw new Error('a handoff ticket is settled once');
        settled = true;
        // The claim took at most the room held, so each activity has a place held for it.
        let next = 0;
        for (const { slot, room } of held) {
          const placed = activities.slice(next, next + room);
          next += placed.length;
          if (this.stop.aborted) void this.giveBack(placed);
          else for (const fetched of placed) this.startIn(slot, fetched);
          slot.releaseRoom(room);
        }
        void this.giveBack(activities.slice(next));
      },
    };
  }

  /**
   * Runs one fetched work item to its acknowledgement (or abandon); `finished` is called when its
   * acknowledgement is sent.
   */
  private async process(
    fetched: FetchedWorkItem,
    workerId: string,
    finished?: () => void,
  ): Promise<void> {
    const { options, provider, logger } = this.deps;
    const { item, lockToken, attemptCount } = fetched;
    this.deps.metrics.increment('workerDispatcherItemsFetched');
    if (item.type !== 'ActivityExecute') {
      logger.error({ type: item.type }, 'unexpected work item on the worker queue');
      await provider.abandonWorkItem(lockToken, 1_000, false).catch(() => undefined);
      return;
    }
    const sessionId = item.sessionId;
    if (sessionId !== undefined) {
      this.sessions.enter(sessionId);
      if (this.sessions.distinct > options.maxSessionsPerRuntime) {
        this.sessions.leave(sessionId);
        await provider.abandonWorkItem(lockToken, 100, true).catch(() => undefined);
        return;
      }
    }
    const tracked = this.acks.track(item.instance, item.executionId);
    const deps: ActivityDependencies = {
      ...this.deps,
      acknowledge: (acknowledgedToken, completion) => {
        finished?.();
        return tracked.acknowledge(acknowledgedToken, completion);
      },
      logger: withLogFields(logger, {
        instanceId: item.instance,
        executionId: item.executionId,
        activityName: item.name,
        activityId: item.id,
        lockToken,
        attemptCount,
      }),
    };
    const attributes = {
      [SPAN_ATTRIBUTES.instanceId]: item.instance,
      [SPAN_ATTRIBUTES.executionId]: item.executionId,
      [SPAN_ATTRIBUTES.activityName]: item.name,
      [SPAN_ATTRIBUTES.activityId]: item.id,
      [SPAN_ATTRIBUTES.attempt]: attemptCount,
      [SPAN_ATTRIBUTES.workerId]: workerId,
    };
    const startedMs = Date.now();
    try {
      await deps.tracing.inSpan(SPAN_NAMES.activityExecution, attributes, (span) =>
        runActivity(deps, { item, lockToken, attemptCount, workerId, span }),
      );
    } finally {
      tracked.finish();
      if (sessionId !== undefined) this.sessions.leave(sessionId);
      deps.metrics.record(
        'duroxide_worker_dispatcher_execution_duration_ms',
        Date.now() - startedMs,
      );
    }
  }

  /**
   * Claimed items this worker will not run (they arrived after shutdown began, or found no
   * room): their locks go back, the attempt uncounted.
   */
  private async giveBack(late: readonly FetchedWorkItem[]): Promise<void> {
    await Promise.all(
      late.map((fetched) =>
        this.deps.provider.abandonWorkItem(fetched.lockToken, null, true).catch(() => undefined),
      ),
    );
  }

  private async manageSessions(owners: string[]): Promise<void> {
    const { options, provider, logger } = this.deps;
    const renewEvery = renewalIntervalMs(
      options.sessionLockTimeoutMs,
      options.sessionLockRenewalBufferMs,
    );
    let nextCleanup = Date.now() + options.sessionCleanupIntervalMs;
    while (await sleepUnlessStopped(renewEvery, this.stop)) {
      try {
        await provider.renewSessionLock(
          owners,
          options.sessionLockTimeoutMs,
          options.sessionIdleTimeoutMs,
        );
      } catch (error) {
        logger.warn({ error: String(error) }, 'Session lock renewal failed');
      }
      if (Date.now() < nextCleanup) continue;
      nextCleanup = Date.now() + options.sessionCleanupIntervalMs;
      try {
        await provider.cleanupOrphanedSessions(options.sessionIdleTimeoutMs);
      } catch (error) {
        logger.warn({ error: String(error) }, 'Session cleanup failed');
      }
    }
  }
}
