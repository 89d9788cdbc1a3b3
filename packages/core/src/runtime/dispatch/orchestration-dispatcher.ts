import { parseSemver } from '../../model/semver.js';
import {
  semverRangeContains,
  type DispatcherCapabilityFilter,
} from '../../provider/fetch-filters.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { processOrchestrationItem } from '../turn/orchestration-turn.js';
import { abandonQuietly, asProviderError, type TurnDependencies } from '../turn/turn-commit.js';
import { fetchUnlessStopped, sleepUnlessStopped, startRenewal } from './stoppable-wait.js';
import { fetchErrorBackoffMs } from './worker-dispatcher.js';

/**
 * The orchestration side of a runtime, as duroxide's orchestration dispatcher:
 * `orchestrationConcurrency` slots each fetch one locked instance at a time (only executions
 * pinned to a supported duroxide version), renew its lock while the turn runs, and run the turn
 * to completion even when shutdown begins, so it is committed once.
 * @internal
 */
export class OrchestrationDispatcher {
  private readonly filter: DispatcherCapabilityFilter;

  constructor(
    private readonly deps: TurnDependencies,
    private readonly stop: AbortSignal,
  ) {
    this.filter = { supportedDuroxideVersions: [deps.options.supportedReplayVersions] };
  }

  /** Starts every slot; each promise resolves when its slot has stopped. */
  run(): Promise<void>[] {
    return Array.from({ length: this.deps.options.orchestrationConcurrency }, () => this.slot());
  }

  private async slot(): Promise<void> {
    const { options, logger } = this.deps;
    let failures = 0;
    while (!this.stop.aborted) {
      const started = Date.now();
      let found: boolean;
      try {
        found = await this.next();
        failures = 0;
      } catch (error) {
        const failure = asProviderError('fetch_orchestration_item', error);
        failures = failure.retryable ? failures + 1 : 0;
        logger.warn('Error fetching orchestration item', {
          error: failure.message,
          retryable: failure.retryable,
        });
        await sleepUnlessStopped(fetchErrorBackoffMs(failure.retryable, failures), this.stop);
        continue;
      }
      const idle = options.dispatcherPollIntervalMs - (Date.now() - started);
      if (!found && idle > 0) await sleepUnlessStopped(idle, this.stop);
    }
  }

  private async next(): Promise<boolean> {
    const { options, provider } = this.deps;
    const fetched = await fetchUnlessStopped(
      provider.fetchOrchestrationItem(
        options.orchestratorLockTimeoutMs,
        options.dispatcherLongPollTimeoutMs,
        this.filter,
      ),
      this.stop,
      (late) => this.giveBack(late),
    );
    if (!fetched?.value) return false;
    const { item, lockToken, attemptCount } = fetched.value;
    const pinned = item.history.find(
      (event) => event.kind.type === 'OrchestrationStarted',
    )?.duroxideVersion;
    if (pinned !== undefined && !this.supports(pinned)) {
      // Defence in depth: the provider filter should have skipped this execution.
      this.deps.logger.warn('Execution pinned at incompatible version, abandoning', {
        instance: item.instance,
        pinned,
      });
      await abandonQuietly(this.deps, lockToken, 1_000);
      return true;
    }
    const stopRenewal = startRenewal(
      renewalIntervalMs(options.orchestratorLockTimeoutMs, options.orchestratorLockRenewalBufferMs),
      () => provider.renewOrchestrationItemLock(lockToken, options.orchestratorLockTimeoutMs),
      () => undefined,
    );
    try {
      await processOrchestrationItem(this.deps, item, lockToken, attemptCount);
    } finally {
      stopRenewal();
    }
    return true;
  }

  private supports(version: string): boolean {
    try {
      return semverRangeContains(this.deps.options.supportedReplayVersions, parseSemver(version));
    } catch {
      return true;
    }
  }

  /** A fetch that finished after shutdown began: its lock goes back without counting an attempt. */
  private async giveBack(late: FetchedOrchestrationItem | null): Promise<void> {
    if (!late) return;
    await this.deps.provider
      .abandonOrchestrationItem(late.lockToken, null, true)
      .catch(() => undefined);
  }
}
