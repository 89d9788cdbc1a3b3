import { parseSemver } from '../../model/semver.js';
import {
  semverRangeContains,
  type DispatcherCapabilityFilter,
} from '../../provider/fetch-filters.js';
import type { FetchedOrchestrationItem } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { SpanStatusCode } from '@opentelemetry/api';
import { withLogFields } from '../logger.js';
import { renewalIntervalMs } from '../runtime-options.js';
import { SPAN_ATTRIBUTES, SPAN_NAMES } from '../runtime-tracing.js';
import { processOrchestrationItem } from '../turn/orchestration-turn.js';
import { abandonQuietly, type TurnDependencies } from '../turn/turn-commit.js';
import type { OrchestrationIdentities } from '../turn/orchestration-identities.js';
import { SerialFetches } from './serial-fetches.js';
import { runSlot } from './slot-loop.js';
import { TurnBatchAcks } from './turn-batch-acks.js';
import { fetchUnlessStopped, startRenewal } from './stoppable-wait.js';
import type { ActivityHandoff } from './activity-handoff.js';

/**
 * The orchestration side of a runtime, as duroxide's orchestration dispatcher:
 * `orchestrationConcurrency` slots each fetch locked instances (only executions pinned to a
 * supported duroxide version), renew each lock while its turn runs, and run the turns to
 * completion even when shutdown begins, so each is committed once. When the provider can claim
 * and commit batches and `orchestrationBatchSize` is above 1, a slot claims up to that many
 * instances per fetch and commits their turns together (see {@link TurnBatchAcks}); otherwise
 * it takes one turn at a time, as duroxide does.
 * @internal
 */
export class OrchestrationDispatcher {
  private readonly filter: DispatcherCapabilityFilter;
  private readonly batchFetches: SerialFetches;

  constructor(
    private readonly deps: TurnDependencies,
    private readonly identities: OrchestrationIdentities,
    private readonly stop: AbortSignal,
    /** The runtime's worker, to run the activities batch commits claim for it; `null` for none. */
    private readonly activityHandoff: ActivityHandoff | null,
  ) {
    this.filter = { supportedDuroxideVersions: [deps.options.supportedReplayVersions] };
    this.batchFetches = new SerialFetches(stop);
  }

  /** Starts every slot; each promise resolves when its slot has stopped. */
  run(): Promise<void>[] {
    const { options, logger, provider } = this.deps;
    const fetchItems = provider.fetchOrchestrationItems?.bind(provider);
    const ackItems = provider.ackOrchestrationItems?.bind(provider);
    const batched =
      fetchItems !== undefined && ackItems !== undefined && options.orchestrationBatchSize > 1;
    return Array.from({ length: options.orchestrationConcurrency }, () =>
      runSlot(
        this.stop,
        options.dispatcherPollIntervalMs,
        logger,
        'fetch_orchestration_item',
        () => (batched ? this.nextBatch(fetchItems, ackItems) : this.next()),
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
      (late) => this.giveBack(late === null ? [] : [late]),
    );
    if (!fetched?.value) return false;
    await this.process(fetched.value, this.deps);
    return true;
  }

  /**
   * Claims up to `orchestrationBatchSize` turns, runs them together and commits them together.
   * The slots' fetches go one at a time (see {@link SerialFetches}).
   */
  private async nextBatch(
    fetchItems: NonNullable<Provider['fetchOrchestrationItems']>,
    ackItems: NonNullable<Provider['ackOrchestrationItems']>,
  ): Promise<boolean> {
    const { options } = this.deps;
    const fetched = await fetchUnlessStopped(
      this.batchFetches.run(
        () =>
          fetchItems(
            options.orchestratorLockTimeoutMs,
            options.dispatcherLongPollTimeoutMs,
            this.filter,
            options.orchestrationBatchSize,
          ),
        [],
      ),
      this.stop,
      (late) => this.giveBack(late),
    );
    if (!fetched || fetched.value.length === 0) return false;
    const acks = new TurnBatchAcks(
      ackItems,
      fetched.value.map((turn) => turn.lockToken),
      this.activityHandoff,
    );
    const deps: TurnDependencies = { ...this.deps, commits: acks };
    const settled = await Promise.allSettled(
      fetched.value.map((turn) =>
        this.process(turn, deps).finally(() => acks.finish(turn.lockToken)),
      ),
    );
    // As for a single turn, an unexpected failure reaches the slot loop, once all have ended.
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return true;
  }

  /** Runs one claimed turn to its commit (or abandon), renewing its lock meanwhile. */
  private async process(
    fetched: FetchedOrchestrationItem,
    slotDeps: TurnDependencies,
  ): Promise<void> {
    const { options, provider } = this.deps;
    const { item, lockToken, attemptCount } = fetched;
    this.deps.metrics.increment('orchDispatcherItemsFetched');
    // Every line logged about this item names it, so a poison warning and an ack failure of one
    // lock can be told apart from those of another.
    const deps = {
      ...slotDeps,
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
      return;
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
  }

  private supports(version: string): boolean {
    try {
      return semverRangeContains(this.deps.options.supportedReplayVersions, parseSemver(version));
    } catch {
      return true;
    }
  }

  /** Fetched turns that arrived after shutdown began: their locks go back without counting an attempt. */
  private async giveBack(late: readonly FetchedOrchestrationItem[]): Promise<void> {
    await Promise.all(
      late.map((turn) =>
        this.deps.provider
          .abandonOrchestrationItem(turn.lockToken, null, true)
          .catch(() => undefined),
      ),
    );
  }
}
