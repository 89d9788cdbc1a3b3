import { parseSemver } from '../../model/semver.js';
import {
  semverRangeContains,
  type DispatcherCapabilityFilter,
} from '../../provider/fetch-filters.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import { SpanStatusCode } from '@opentelemetry/api';
import { withLogFields } from '../logger.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES } from '../runtime-tracing.js';
import { processOrchestrationItem } from '../turn/orchestration-turn.js';
import { abandonQuietly, type TurnDependencies } from '../turn/turn-commit.js';
import type { OrchestrationIdentities } from './orchestration-identities.js';
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
    private readonly identities: OrchestrationIdentities,
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
    this.deps.metrics.increment('orchDispatcherItemsFetched');
    // Every line logged about this item names it, so a poison warning and an ack failure of one
    // lock can be told apart from those of another.
    const deps = {
      ...this.deps,
      logger: withLogFields(this.deps.logger, {
        instanceId: item.instance,
        executionId: item.executionId,
        lockToken,
        attemptCount,
      }),
    };
    const pinned = item.history.find(
      (event) => event.kind.type === 'OrchestrationStarted',
    )?.duroxideVersion;
    if (pinned !== undefined && !this.supports(pinned)) {
      // Defence in depth: the provider filter should have skipped this execution.
      deps.logger.warn({ pinned }, 'Execution pinned at incompatible version, abandoning');
      await abandonQuietly(deps, lockToken, 1_000);
      return true;
    }
    const stopRenewal = startRenewal(
      renewalIntervalMs(options.orchestratorLockTimeoutMs, options.orchestratorLockRenewalBufferMs),
      () => provider.renewOrchestrationItemLock(lockToken, options.orchestratorLockTimeoutMs),
      (error) => {
        deps.metrics.increment('orchLockSteals');
        deps.logger.warn(
          { error: String(error) },
          'Orchestration lock could not be renewed; the turn may not commit',
        );
      },
    );
    const startedMs = Date.now();
    const attributes = {
      [SPAN_ATTRIBUTES.instanceId]: item.instance,
      [SPAN_ATTRIBUTES.executionId]: item.executionId,
      [SPAN_ATTRIBUTES.orchestrationName]: item.orchestrationName,
      [SPAN_ATTRIBUTES.orchestrationVersion]: item.version,
      [SPAN_ATTRIBUTES.attempt]: attemptCount,
    };
    try {
      await deps.tracing.inSpan(SPAN_NAMES.orchestrationTurn, attributes, async (span) => {
        const { disposition, ran } = await processOrchestrationItem(
          deps,
          item,
          lockToken,
          attemptCount,
        );
        span.setAttribute(SPAN_ATTRIBUTES.turnDisposition, disposition);
        if (ran !== null) {
          span.setAttribute(SPAN_ATTRIBUTES.orchestrationVersion, ran.identity.version);
          // The activities this turn scheduled run as this execution's orchestration.
          if (disposition === 'committed') {
            this.identities.remember(item.instance, ran.executionId, ran.identity);
          }
        }
        if (disposition === 'ack_failed' || disposition === 'poison_failed') {
          span.setStatus({ code: SpanStatusCode.ERROR, message: disposition });
        }
      });
    } finally {
      stopRenewal();
      deps.metrics.record(
        'duroxide_orchestration_dispatcher_processing_duration_ms',
        Date.now() - startedMs,
        { orchestration_name: item.orchestrationName },
      );
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
