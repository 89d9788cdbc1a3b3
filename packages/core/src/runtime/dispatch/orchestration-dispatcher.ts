import { parseSemver } from '../../model/semver.js';
import {
  semverRangeContains,
  type DispatcherCapabilityFilter,
} from '../../provider/fetch-filters.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { processOrchestrationItem } from '../turn/orchestration-turn.js';
import { abandonQuietly, type TurnDependencies } from '../turn/turn-commit.js';
import { runSlot } from './slot-loop.js';
import { fetchUnlessStopped, startRenewal } from './stoppable-wait.js';

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
    const { options, logger } = this.deps;
    return Array.from({ length: options.orchestrationConcurrency }, () =>
      runSlot(this.stop, options.dispatcherPollIntervalMs, logger, 'fetch_orchestration_item', () =>
        this.next(),
      ),
    );
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
