import type { Event } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import type { ExecutionMetadata } from '../../provider/execution-metadata.js';
import type {
  OrchestrationItem,
  ScheduledActivityIdentifier,
} from '../../provider/orchestration-item.js';
import type { OrchestrationIdentity } from './orchestration-identities.js';
import { limitViolation } from '../limits.js';
import { newEvent } from '../runtime-version.js';
import { unregisteredBackoffMs } from '../runtime-options.js';
import { readBatch, type BatchReading } from './batch-reader.js';
import { nextEventId, summarizeHistory, type HistorySummary } from './history-summary.js';
import { failAsPoison } from './orchestration-poison.js';
import { inflightActivities } from './outstanding-schedules.js';
import {
  abandonQuietly,
  ackTurn,
  metadataFromDelta,
  resolveParentExecutionId,
  type TurnDependencies,
} from './turn-commit.js';
import { executeTurn } from './turn-execution.js';

/**
 * What became of one fetched orchestration item: its turn was committed, it was failed as
 * poison (or that disposition's ack failed, leaving the messages in the queue), it was abandoned
 * for a later retry, or its ack failed.
 * @internal
 */
export type TurnDisposition =
  'committed' | 'poisoned' | 'poison_failed' | 'abandoned' | 'ack_failed';

/**
 * What became of an item, and the execution its turn ran (`null` when no handler ran; a new
 * instance's version is only known once the handler was resolved).
 * @internal
 */
export interface TurnOutcome {
  readonly disposition: TurnDisposition;
  readonly ran: RanExecution | null;
}

/** The execution a turn ran, and the orchestration it ran as. @internal */
export interface RanExecution {
  readonly executionId: number;
  readonly identity: OrchestrationIdentity;
}

const outcome = (disposition: TurnDisposition, ran: RanExecution | null = null): TurnOutcome => ({
  disposition,
  ran,
});

/**
 * Processes one fetched orchestration item, as duroxide 0.1.32's `process_orchestration_item`:
 * poison past `maxAttempts`; undecodable history abandoned (1 s) until it poisons; inputs for an
 * execution that continued-as-new but whose successor start is not in the batch abandoned with
 * the unregistered backoff (the 0.1.32 admission rule, nothing is lost); terminal instances
 * acked unchanged (colliding child starts fail their parent); unregistered handlers abandoned
 * with backoff; otherwise one turn is run, limits are enforced, in-flight activities of an
 * ending execution are cancelled and everything is committed in one ack.
 * @internal
 */
export async function processOrchestrationItem(
  deps: TurnDependencies,
  item: OrchestrationItem,
  lockToken: string,
  attemptCount: number,
): Promise<TurnOutcome> {
  const { options, logger } = deps;
  const instance = item.instance;
  if (attemptCount > options.maxAttempts) {
    logger.warn(
      {
        instance,
        attemptCount,
      },
      'Orchestration message exceeded max attempts, marking as poison',
    );
    return outcome(await failAsPoison(deps, item, lockToken, attemptCount));
  }
  if (item.historyError !== null) {
    logger.warn(
      {
        instance,
        error: item.historyError,
      },
      'History deserialization failed, abandoning with 1s backoff',
    );
    await abandonQuietly(deps, lockToken, 1_000);
    return outcome('abandoned');
  }

  const summary = summarizeHistory(item.history);
  const batch = readBatch(item.messages, summary, instance);
  // Runtimes before 0.1.31 poisoned a successor into the previous execution, after its CAN row.
  const terminalAfterCan =
    summary.isContinuedAsNew &&
    item.history.some((event) => event.kind.type === 'OrchestrationFailed');
  if (summary.isContinuedAsNew && !terminalAfterCan && !batch.isContinueAsNew) {
    const backoffMs = unregisteredBackoffMs(options, attemptCount);
    logger.warn(
      {
        instance,
        attemptCount,
        backoffMs,
      },
      'CAN successor start not visible, abandoning instance inputs',
    );
    await abandonQuietly(deps, lockToken, backoffMs);
    return outcome('abandoned');
  }
  if (summary.isCompleted || summary.isFailed || terminalAfterCan) {
    const failure = await ackTurn(deps, lockToken, {
      executionId: item.executionId,
      historyDelta: [],
      workerItems: [],
      orchestratorItems: await collisionNotifications(deps, item, summary),
      metadata: {},
      cancelledActivities: [],
    });
    return outcome(failure ? 'ack_failed' : 'committed');
  }

  const collisions =
    item.history.length > 0 ? await collisionNotifications(deps, item, summary) : [];
  const executionId = batch.isContinueAsNew ? item.executionId + 1 : item.executionId;
  const persisted: readonly Event[] = batch.isContinueAsNew ? [] : item.history;

  let delta: Event[] = [];
  let workerItems: WorkItem[] = [];
  let orchestratorItems: WorkItem[] = [];
  let cancelled: ScheduledActivityIdentifier[] = [];
  let ran: RanExecution | null = null;
  if (batch.orchestrationName !== '') {
    const resolved =
      batch.version !== null
        ? deps.orchestrations.resolveExact(batch.orchestrationName, batch.version)
        : deps.orchestrations.resolveLatest(batch.orchestrationName);
    if (!resolved) {
      const backoffMs = unregisteredBackoffMs(options, attemptCount);
      logger.warn(
        {
          instance,
          orchestrationName: batch.orchestrationName,
          version: batch.version ?? 'latest',
          attemptCount,
          backoffMs,
        },
        'Orchestration not registered, abandoning with backoff',
      );
      await abandonQuietly(deps, lockToken, backoffMs);
      return outcome('abandoned');
    }
    ran = { executionId, identity: { name: batch.orchestrationName, version: resolved.version } };
    const started =
      persisted.length === 0 ? [startedEvent(instance, executionId, batch, resolved.version)] : [];
    if (started.length > 0 || batch.isContinueAsNew) {
      deps.metrics.increment('orchStarts', {
        orchestration_name: batch.orchestrationName,
        version: resolved.version,
        initiated_by: batch.isContinueAsNew
          ? 'continueAsNew'
          : batch.parentInstance !== null
            ? 'suborchestration'
            : 'client',
      });
    }
    deps.metrics.increment('orchTurns');
    const output = await executeTurn({
      instance,
      executionId,
      persisted,
      started,
      batch,
      handler: resolved.handler,
      version: resolved.version,
      kvSnapshot: item.kvSnapshot,
      logger,
      parentExecutionId: (parent, stamped) => resolveParentExecutionId(deps, parent, stamped),
    });
    ({ delta, workerItems, orchestratorItems } = output);
    cancelled = output.cancelledActivities;
  }

  let metadata: ExecutionMetadata = metadataFromDelta(delta);
  const violation = limitViolation(delta, item.kvSnapshot);
  if (violation !== null) {
    logger.error({ instance, executionId }, `${violation}, failing orchestration`);
    const details = {
      type: 'Application',
      kind: { type: 'OrchestrationFailed' },
      message: violation,
      retryable: false,
    } as const;
    delta.push(
      newEvent(nextEventId(persisted, delta), instance, executionId, null, {
        type: 'OrchestrationFailed',
        details,
      }),
    );
    metadata = { ...metadata, status: 'Failed', output: violation };
    workerItems = [];
    orchestratorItems = [];
  }
  recordOutcome(deps, [...persisted, ...delta], delta);

  if (metadata.status !== undefined && metadata.status !== 'Running') {
    const reason = {
      Completed: 'orchestration_terminal_completed',
      Failed: 'orchestration_terminal_failed',
      ContinuedAsNew: 'orchestration_terminal_continued_as_new',
    }[metadata.status];
    for (const activityId of inflightActivities([...persisted, ...delta])) {
      delta.push(
        newEvent(nextEventId(persisted, delta), instance, executionId, activityId, {
          type: 'ActivityCancelRequested',
          reason,
        }),
      );
      cancelled.push({ instance, executionId, activityId });
    }
  }
  const seen = new Set<number>();
  cancelled = cancelled.filter((a) => !seen.has(a.activityId) && seen.add(a.activityId));

  const failure = await ackTurn(deps, lockToken, {
    executionId,
    historyDelta: delta,
    workerItems,
    orchestratorItems: [...orchestratorItems, ...collisions],
    metadata,
    cancelledActivities: cancelled,
  });
  if (!failure) return outcome('committed', ran);

  logger.warn(
    {
      instance,
      error: failure.message,
    },
    'Failed to ack orchestration item, failing orchestration',
  );
  deps.metrics.increment('orchInfrastructureErrors');
  const details = failure.toInfrastructureError();
  const failed = [
    newEvent(nextEventId(item.history), instance, item.executionId, null, {
      type: 'OrchestrationFailed',
      details,
    }),
  ];
  const fallback = await ackTurn(deps, lockToken, {
    executionId,
    historyDelta: failed,
    workerItems: [],
    orchestratorItems: collisions,
    metadata: metadataFromDelta(failed),
    cancelledActivities: [],
  });
  if (fallback) {
    logger.warn(
      {
        instance,
        error: fallback.message,
      },
      'Failed to commit failure event, abandoning lock',
    );
    await abandonQuietly(deps, lockToken, 50);
  }
  return outcome('ack_failed', ran);
}

function startedEvent(
  instance: string,
  executionId: number,
  batch: BatchReading,
  version: string,
): Event {
  const start = batch.startItem;
  const carried = start?.type === 'ContinueAsNew' ? start.carryForwardEvents : [];
  const status = start?.type === 'ContinueAsNew' ? start.initialCustomStatus : undefined;
  return newEvent(1, instance, executionId, null, {
    type: 'OrchestrationStarted',
    name: batch.orchestrationName,
    version,
    input: batch.input,
    parentInstance: batch.parentInstance,
    parentId: batch.parentId,
    ...(batch.parentExecutionId !== null ? { parentExecutionId: batch.parentExecutionId } : {}),
    ...(carried.length > 0 ? { carryForwardEvents: carried } : {}),
    ...(status !== undefined ? { initialCustomStatus: status } : {}),
  });
}

/**
 * Counts the sub-orchestrations and terminal events of a turn and records the duration of an
 * execution that ended.
 */
function recordOutcome(
  deps: TurnDependencies,
  history: readonly Event[],
  delta: readonly Event[],
): void {
  const started = history.find((event) => event.kind.type === 'OrchestrationStarted');
  const labels =
    started?.kind.type === 'OrchestrationStarted'
      ? { orchestration_name: started.kind.name, version: started.kind.version }
      : {};
  const ended = (status: string, event: Event): void => {
    if (started === undefined) return;
    deps.metrics.record(
      'duroxide_orchestration_duration_seconds',
      Math.max(0, event.timestampMs - started.timestampMs) / 1_000,
      { ...labels, status },
    );
  };
  for (const event of delta) {
    const kind = event.kind;
    if (kind.type === 'SubOrchestrationScheduled') {
      deps.metrics.increment('suborchestrationCalls', {
        parent_orchestration:
          'orchestration_name' in labels ? labels.orchestration_name : 'unknown',
        child_orchestration: kind.name,
      });
    }
    if (kind.type === 'OrchestrationCompleted') {
      deps.metrics.increment('orchCompletions', labels);
      ended('success', event);
    }
    if (kind.type === 'OrchestrationContinuedAsNew') {
      deps.metrics.increment('orchContinueAsNew', labels);
      ended('continued_as_new', event);
    }
    if (kind.type !== 'OrchestrationFailed') continue;
    deps.metrics.increment('orchFailures', labels);
    ended('failed', event);
    const category = kind.details.type;
    if (category === 'Application') deps.metrics.increment('orchApplicationErrors', labels);
    else if (category === 'Infrastructure') {
      deps.metrics.increment('orchInfrastructureErrors', labels);
    } else if (category === 'Configuration') {
      deps.metrics.increment('orchConfigurationErrors', labels);
    }
  }
}

/**
 * `SubOrchFailed` for child starts that reached an existing instance, as duroxide's
 * `terminal_collision_notifications`: a running instance's own parent re-sending its start is
 * ignored, every other colliding parent fails fast instead of waiting forever.
 */
async function collisionNotifications(
  deps: TurnDependencies,
  item: OrchestrationItem,
  summary: HistorySummary,
): Promise<WorkItem[]> {
  const terminal = summary.isCompleted || summary.isFailed;
  const notifications: WorkItem[] = [];
  for (const message of item.messages) {
    if (
      message.type !== 'StartOrchestration' ||
      message.parentInstance === null ||
      message.parentId === null
    )
      continue;
    const ownParent =
      summary.parentInstance === message.parentInstance &&
      summary.parentId === message.parentId &&
      message.parentExecutionId !== undefined &&
      summary.parentExecutionId === message.parentExecutionId;
    if (!terminal && ownParent) continue;
    notifications.push({
      type: 'SubOrchFailed',
      parentInstance: message.parentInstance,
      parentExecutionId: await resolveParentExecutionId(
        deps,
        message.parentInstance,
        message.parentExecutionId ?? null,
      ),
      parentId: message.parentId,
      details: {
        type: 'Application',
        kind: { type: 'OrchestrationFailed' },
        message: `sub-orchestration instance id '${item.instance}' already exists${terminal ? ' and is terminal' : ''}`,
        retryable: false,
      },
    });
  }
  return notifications;
}
