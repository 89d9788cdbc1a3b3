import type { FetchedWorkItem } from '../../provider/orchestration-item.js';
import type { SessionFetchConfig } from '../../provider/fetch-filters.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { runActivity, type ActivityDependencies } from './activity-execution.js';
import { runSlot } from './slot-loop.js';
import { fetchUnlessStopped, sleepUnlessStopped } from './stoppable-wait.js';

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
 * The worker side of a runtime, as duroxide's worker dispatcher: `workerConcurrency` slots each
 * fetch one activity at a time (with session routing while under `maxSessionsPerRuntime`, and
 * the tag filter), and a session manager renews owned sessions and sweeps orphaned ones.
 * @internal
 */
export class WorkerDispatcher {
  private readonly sessions = new SessionTracker();

  constructor(
    private readonly deps: ActivityDependencies,
    private readonly runtimeId: string,
    private readonly stop: AbortSignal,
  ) {}

  /** Starts every slot and the session manager; resolves when all have stopped. */
  run(): Promise<void>[] {
    const { options } = this.deps;
    if (options.workerTagFilter.type === 'None') return [];
    const owners = new Set<string>();
    const loops: Promise<void>[] = [];
    for (let slot = 0; slot < options.workerConcurrency; slot += 1) {
      const workerId = `work-${slot}-${options.workerNodeId ?? this.runtimeId}`;
      const owner = options.workerNodeId ?? workerId;
      owners.add(owner);
      loops.push(
        runSlot(
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

  private async next(workerId: string, owner: string): Promise<boolean> {
    const { options, provider, logger } = this.deps;
    const session: SessionFetchConfig | null =
      this.sessions.distinct >= options.maxSessionsPerRuntime
        ? null
        : { ownerId: owner, lockTimeoutMs: options.sessionLockTimeoutMs };
    const fetched = await fetchUnlessStopped(
      provider.fetchWorkItem(
        options.workerLockTimeoutMs,
        options.dispatcherLongPollTimeoutMs,
        session,
        options.workerTagFilter,
      ),
      this.stop,
      (late) => this.giveBack(late),
    );
    if (!fetched?.value) return false;
    const { item, lockToken, attemptCount } = fetched.value;
    if (item.type !== 'ActivityExecute') {
      logger.error('unexpected work item on the worker queue', { type: item.type });
      await provider.abandonWorkItem(lockToken, 1_000, false).catch(() => undefined);
      return true;
    }
    const sessionId = item.sessionId;
    if (sessionId !== undefined) {
      this.sessions.enter(sessionId);
      if (this.sessions.distinct > options.maxSessionsPerRuntime) {
        this.sessions.leave(sessionId);
        await provider.abandonWorkItem(lockToken, 100, true).catch(() => undefined);
        return true;
      }
    }
    try {
      await runActivity(this.deps, item, lockToken, attemptCount, workerId);
    } finally {
      if (sessionId !== undefined) this.sessions.leave(sessionId);
    }
    return true;
  }

  /** A fetch that finished after shutdown began: its lock goes back untouched. */
  private async giveBack(late: FetchedWorkItem | null): Promise<void> {
    if (late)
      await this.deps.provider.abandonWorkItem(late.lockToken, null, true).catch(() => undefined);
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
        logger.warn('Session lock renewal failed', { error: String(error) });
      }
      if (Date.now() < nextCleanup) continue;
      nextCleanup = Date.now() + options.sessionCleanupIntervalMs;
      try {
        await provider.cleanupOrphanedSessions(options.sessionIdleTimeoutMs);
      } catch (error) {
        logger.warn('Session cleanup failed', { error: String(error) });
      }
    }
  }
}
