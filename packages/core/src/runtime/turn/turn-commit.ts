import { errorDisplayMessage } from '../../model/error-details.js';
import type { Event } from '../../model/event.js';
import { parseSemver } from '../../model/semver.js';
import type { ExecutionMetadata } from '../../provider/execution-metadata.js';
import type { OrchestrationTurnCommit } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import type { ProviderError } from '../../provider/provider-error.js';
import type { Logger } from '../logger.js';
import { callWithRetries } from '../provider-retry.js';
import type { RuntimeMetrics } from '../runtime-metrics.js';
import type { RuntimeTracing } from '../runtime-tracing.js';
import type { OrchestrationRegistry } from '../registry.js';
import type { ResolvedRuntimeOptions } from '../runtime-options.js';

/**
 * Where a turn's commit goes: the provider's `ackOrchestrationItem` for a turn fetched alone,
 * or the batch of turns a dispatcher slot fetched together (see `TurnBatchAcks`). Resolves once
 * the turn committed, rejects with the provider's error when it did not.
 * @internal
 */
export interface TurnCommits {
  commit(lockToken: string, commit: OrchestrationTurnCommit): Promise<void>;
}

/** Commits each turn on its own with the provider's `ackOrchestrationItem`. @internal */
export class SingleTurnCommits implements TurnCommits {
  constructor(private readonly provider: Provider) {}

  commit(lockToken: string, commit: OrchestrationTurnCommit): Promise<void> {
    return this.provider.ackOrchestrationItem(
      lockToken,
      commit.executionId,
      commit.historyDelta,
      commit.workerItems,
      commit.orchestratorItems,
      commit.metadata,
      commit.cancelledActivities,
    );
  }
}

/** What turn processing needs from the runtime. @internal */
export interface TurnDependencies {
  readonly provider: Provider;
  readonly options: ResolvedRuntimeOptions;
  readonly orchestrations: OrchestrationRegistry;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly tracing: RuntimeTracing;
  /** Where this turn's commit goes. */
  readonly commits: TurnCommits;
}

/**
 * The execution metadata a delta implies, as duroxide's `compute_execution_metadata`: the
 * `OrchestrationStarted` sets name, version, parent and the pinned runtime version; the first
 * terminal event sets status and output (the error text for a failure, the next input for
 * continue-as-new).
 * @internal
 */
export function metadataFromDelta(delta: readonly Event[]): ExecutionMetadata {
  let metadata: ExecutionMetadata = {};
  for (const event of delta) {
    const kind = event.kind;
    if (kind.type === 'OrchestrationStarted') {
      let pinned: ExecutionMetadata['pinnedDuroxideVersion'];
      try {
        pinned = parseSemver(event.duroxideVersion);
      } catch {
        pinned = undefined;
      }
      metadata = {
        ...metadata,
        orchestrationName: kind.name,
        orchestrationVersion: kind.version,
        ...(kind.parentInstance !== null ? { parentInstanceId: kind.parentInstance } : {}),
        ...(pinned ? { pinnedDuroxideVersion: pinned } : {}),
      };
    } else if (kind.type === 'OrchestrationCompleted') {
      return { ...metadata, status: 'Completed', output: kind.output };
    } else if (kind.type === 'OrchestrationFailed') {
      return { ...metadata, status: 'Failed', output: errorDisplayMessage(kind.details) };
    } else if (kind.type === 'OrchestrationContinuedAsNew') {
      return { ...metadata, status: 'ContinuedAsNew', output: kind.input };
    }
  }
  return metadata;
}

/**
 * Acknowledges a turn, retrying retryable provider errors (see {@link callWithRetries}); a
 * permanent error is returned at once so the caller can record the failure. After the retries
 * the lock is abandoned. Every failed ack counts in `orchAckFailures`.
 * @returns `null` when committed, else the last error.
 * @internal
 */
export async function ackTurn(
  deps: TurnDependencies,
  lockToken: string,
  commit: OrchestrationTurnCommit,
): Promise<ProviderError | null> {
  const failure = await callWithRetries('ack_orchestration_item', () =>
    deps.commits.commit(lockToken, commit),
  );
  if (failure === null) return null;
  deps.metrics.increment('orchAckFailures');
  if (failure.retryable) {
    deps.logger.warn(
      { error: failure.message },
      'Failed to ack_orchestration_item after max retries',
    );
    await abandonQuietly(deps, lockToken, 50);
  }
  return failure;
}

/** Abandons a lock, logging instead of throwing (the lock also expires by itself). */
export async function abandonQuietly(
  deps: TurnDependencies,
  lockToken: string,
  delayMs: number | null,
): Promise<void> {
  try {
    await deps.provider.abandonOrchestrationItem(lockToken, delayMs, false);
  } catch (error) {
    deps.logger.warn(
      {
        error: String(error),
      },
      'abandon_orchestration_item failed; the lock will expire',
    );
  }
}

/** The parent execution a child's result goes to: the stamped one, else the parent's latest. */
export async function resolveParentExecutionId(
  deps: TurnDependencies,
  parentInstance: string,
  stamped: number | null,
): Promise<number> {
  if (stamped !== null) return stamped;
  try {
    const events = await deps.provider.read(parentInstance);
    return events.reduce((max, event) => Math.max(max, event.executionId), 1);
  } catch (error) {
    deps.logger.warn(
      {
        parentInstance,
        error: String(error),
      },
      'failed to read parent history for sub-orchestration routing; defaulting to 1',
    );
    return 1;
  }
}
