import type { WorkItem } from '../../model/work-item.js';
import { activityClaimTakes, type ActivityClaim } from '../../provider/activity-claim.js';
import type { FetchedWorkItem } from '../../provider/orchestration-item.js';
import type { SessionFetchConfig } from '../../provider/fetch-filters.js';
import type { Provider } from '../../provider/provider.js';
import { withLogFields } from '../logger.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES } from '../runtime-tracing.js';
import { runActivity, type ActivityDependencies } from './activity-execution.js';
import type { ActivityHandoff, HandoffTicket } from './activity-handoff.js';
import { ActivityRoom, type ActivityPlace } from './activity-room.js';
import { runSlot } from './slot-loop.js';
import { fetchUnlessStopped, sleepUnlessStopped } from './stoppable-wait.js';
import { WorkItemAcks } from './work-item-acks.js';

/**
 * How long claimed activities that came back to a full room wait for a place before they go
 * back, ms: a few short activities' time.
 */
const SURPLUS_WAIT_MS = 100;

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
 * The worker side of a runtime, as duroxide's worker dispatcher: it runs at most
 * `workerConcurrency` activities at once (see {@link ActivityRoom}), fetched with the tag filter
 * and with session routing while the runtime serves fewer than `maxSessionsPerRuntime` sessions,
 * and a session manager renews the runtime's sessions and sweeps orphaned ones.
 *
 * The runtime owns its sessions as one owner (`workerNodeId`, else an id of its own), as
 * duroxide's slots do when they share a `worker_node_id`: whichever place is free runs the
 * session's next activity.
 *
 * When the provider claims batches (`fetchWorkItems`) and `workerBatchSize` is above 1, one
 * fetch at a time asks for as many activities as there are free places (at most
 * `workerBatchSize`), and activities a turn commit of this runtime claimed for it (see
 * {@link ActivityHandoff}) take places too; the activities a fetch brings back beyond the room
 * left by then wait briefly for places, and go back if none frees. Otherwise
 * `workerConcurrency` slots each fetch and run one activity at a time, as duroxide does.
 * @internal
 */
export class WorkerDispatcher implements ActivityHandoff {
  private readonly sessions = new SessionTracker();
  private readonly acks: WorkItemAcks;
  private readonly room: ActivityRoom;
  /** Activities started by a batch fetch or a handoff and not finished, for shutdown. */
  private readonly running = new Set<Promise<void>>();
  /** Who owns this runtime's sessions. */
  private readonly sessionOwner: string;
  /** Whether activities are fetched in batches; only then do turn commits hand any over. */
  private batched = false;

  constructor(
    private readonly deps: Omit<ActivityDependencies, 'tracked'>,
    /** Names this runtime's workers (`work-<place>-<runtime>`), unless `workerNodeId` does. */
    private readonly runtimeId: string,
    private readonly stop: AbortSignal,
  ) {
    this.acks = new WorkItemAcks(deps.provider);
    this.room = new ActivityRoom(deps.options.workerConcurrency);
    this.sessionOwner = deps.options.workerNodeId ?? `work-${runtimeId}`;
  }

  /** Starts fetching and the session manager; resolves when all have stopped. */
  run(): Promise<void>[] {
    const { options, provider } = this.deps;
    if (options.workerTagFilter.type === 'None' || options.workerConcurrency === 0) return [];
    const fetchWorkItems = provider.fetchWorkItems?.bind(provider);
    const loops: Promise<void>[] = [];
    if (fetchWorkItems !== undefined && options.workerBatchSize > 1) {
      this.batched = true;
      loops.push(this.fetchBatches(fetchWorkItems));
    } else {
      for (let slot = 0; slot < options.workerConcurrency; slot += 1) {
        loops.push(this.fetchOneAtATime());
      }
    }
    loops.push(this.manageSessions());
    return loops;
  }

  reserve(scheduled: readonly WorkItem[]): HandoffTicket | null {
    if (!this.batched || this.stop.aborted || scheduled.length === 0) return null;
    const { options } = this.deps;
    const claim: ActivityClaim = {
      maxItems: scheduled.length,
      lockTimeoutMs: options.workerLockTimeoutMs,
      tagFilter: options.workerTagFilter,
    };
    const wanted = scheduled.filter((item) => activityClaimTakes(claim, item)).length;
    if (wanted === 0 || wanted > this.room.free) return null;
    const places = this.room.take(wanted);
    let adopted = false;
    return {
      claim: { ...claim, maxItems: wanted },
      adopt: (activities) => {
        if (adopted) throw new Error('a handoff ticket is adopted once');
        adopted = true;
        const unplaced: FetchedWorkItem[] = [];
        activities.forEach((fetched, index) => {
          const place = places[index];
          if (place !== undefined && !this.stop.aborted) this.start(fetched, place);
          else unplaced.push(fetched);
        });
        // The places no claimed activity runs in (the commit claimed fewer or failed, or
        // shutdown began) go back.
        for (const place of places.slice(this.stop.aborted ? 0 : activities.length)) {
          place.release();
        }
        void this.giveBack(unplaced);
      },
    };
  }

  /** Session routing for the next fetch: none once this runtime serves its most sessions. */
  private sessionRouting(): SessionFetchConfig | null {
    const { options } = this.deps;
    return this.sessions.distinct >= options.maxSessionsPerRuntime
      ? null
      : { ownerId: this.sessionOwner, lockTimeoutMs: options.sessionLockTimeoutMs };
  }

  /**
   * How long a fetch with `session` routing may wait for work. A fetch without routing, sent
   * while this runtime serves its most sessions, cannot take the next activity of a session this
   * runtime owns; so it waits no longer than a poll interval, and the next fetch routes sessions
   * again once one of them has ended. (A long poll would hold the session's work back that long,
   * and nobody else may take it.)
   */
  private pollTimeoutMs(session: SessionFetchConfig | null): number {
    const { options } = this.deps;
    return session === null
      ? Math.min(options.dispatcherPollIntervalMs, options.dispatcherLongPollTimeoutMs)
      : options.dispatcherLongPollTimeoutMs;
  }

  /** One of duroxide's worker slots: fetches one activity when a place is free, and runs it. */
  private async fetchOneAtATime(): Promise<void> {
    const { options, provider, logger } = this.deps;
    await runSlot(
      this.stop,
      options.dispatcherPollIntervalMs,
      logger,
      'fetch_work_item',
      async () => {
        await this.room.untilFree(this.stop);
        const [place] = this.room.take(1);
        if (place === undefined) return false;
        const session = this.sessionRouting();
        let fetched: { readonly value: FetchedWorkItem | null } | undefined;
        try {
          fetched = await fetchUnlessStopped(
            provider.fetchWorkItem(
              options.workerLockTimeoutMs,
              this.pollTimeoutMs(session),
              session,
              options.workerTagFilter,
            ),
            this.stop,
            (late) => this.giveBack(late ? [late] : []),
          );
        } finally {
          if (!fetched?.value) place.release();
        }
        if (!fetched?.value) return false;
        await this.process(fetched.value, place);
        return true;
      },
    );
  }

  /**
   * Fetches batches, one fetch at a time, each asking for as many activities as there are free
   * places (at most `workerBatchSize`), and starts what it claimed. A fetch waiting for work
   * holds no places, so that activities a turn commit hands over meanwhile can take them; the
   * activities a fetch brings back beyond the places still free then wait for places (see
   * {@link runWhenPlacesFree}) before the next fetch is sent. Resolves once stopped and every
   * activity it started has finished.
   */
  private async fetchBatches(
    fetchWorkItems: NonNullable<Provider['fetchWorkItems']>,
  ): Promise<void> {
    const { options, logger } = this.deps;
    await runSlot(
      this.stop,
      options.dispatcherPollIntervalMs,
      logger,
      'fetch_work_items',
      async () => {
        await this.room.untilFree(this.stop);
        const wanted = Math.min(this.room.free, options.workerBatchSize);
        if (this.stop.aborted || wanted === 0) return false;
        const session = this.sessionRouting();
        const fetched = await fetchUnlessStopped(
          fetchWorkItems(
            options.workerLockTimeoutMs,
            this.pollTimeoutMs(session),
            session,
            options.workerTagFilter,
            wanted,
            session === null ? 0 : options.maxSessionsPerRuntime - this.sessions.distinct,
          ),
          this.stop,
          (late) => this.giveBack(late),
        );
        if (!fetched || fetched.value.length === 0) return false;
        const places = this.room.take(fetched.value.length);
        places.forEach((place, index) => {
          const item = fetched.value[index];
          if (item !== undefined) this.start(item, place);
        });
        await this.runWhenPlacesFree(fetched.value.slice(places.length));
        return true;
      },
    );
    await Promise.allSettled([...this.running]);
  }

  /**
   * Starts claimed activities that found no free place (turn commits handed activities over
   * while their fetch was out) as places free, within {@link SURPLUS_WAIT_MS}; those still
   * without a place then, or when shutdown begins, go back, their attempt uncounted. Giving them
   * back at once cost a statement each and a fetch again, while a place usually frees within
   * milliseconds; the bound keeps work that another worker could run from waiting behind long
   * activities. No more activities run at once than the room has places.
   */
  private async runWhenPlacesFree(surplus: readonly FetchedWorkItem[]): Promise<void> {
    if (surplus.length === 0) return;
    const waitEnds = AbortSignal.any([this.stop, AbortSignal.timeout(SURPLUS_WAIT_MS)]);
    for (const [index, fetched] of surplus.entries()) {
      await this.room.untilFree(waitEnds);
      const [place] = waitEnds.aborted ? [] : this.room.take(1);
      if (place === undefined) {
        await this.giveBack(surplus.slice(index));
        return;
      }
      this.start(fetched, place);
    }
  }

  /** Runs one activity in `place` without waiting for it. */
  private start(fetched: FetchedWorkItem, place: ActivityPlace): void {
    const work = this.process(fetched, place).catch((error: unknown) => {
      this.deps.logger.warn({ error: String(error) }, 'Error in fetch_work_items');
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Runs one fetched work item in `place` to its acknowledgement (or abandon). */
  private async process(fetched: FetchedWorkItem, place: ActivityPlace): Promise<void> {
    try {
      await this.runInPlace(fetched, place);
    } finally {
      place.release();
    }
  }

  private async runInPlace(fetched: FetchedWorkItem, place: ActivityPlace): Promise<void> {
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
    const workerId = `work-${place.index}-${options.workerNodeId ?? this.runtimeId}`;
    const tracked = this.acks.track(item.instance, item.executionId);
    const deps: ActivityDependencies = {
      ...this.deps,
      tracked,
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
        runActivity(deps, { item, lockToken, attemptCount, workerId, place, span }),
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

  private async manageSessions(): Promise<void> {
    const { options, provider, logger } = this.deps;
    const renewEvery = renewalIntervalMs(
      options.sessionLockTimeoutMs,
      options.sessionLockRenewalBufferMs,
    );
    let nextCleanup = Date.now() + options.sessionCleanupIntervalMs;
    while (await sleepUnlessStopped(renewEvery, this.stop)) {
      try {
        await provider.renewSessionLock(
          [this.sessionOwner],
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
