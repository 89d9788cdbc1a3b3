import type { Event } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import type { ExecutionMetadata } from '../../provider/execution-metadata.js';
import type {
  OrchestrationItem,
  ScheduledActivityIdentifier,
} from '../../provider/orchestration-item.js';
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
): Promise<void> {
  const { options, logger } = deps;
  const instance = item.instance;
  if (attemptCount > options.maxAttempts) {
    logger.warn('Orchestration message exceeded max attempts, marking as poison', {
      instance,
      attemptCount,
    });
    await failAsPoison(deps, item, lockToken, attemptCount);
    return;
  }
  if (item.historyError !== null) {
    logger.warn('History deserialization failed, abandoning with 1s backoff', {
      instance,
      error: item.historyError,
    });
    await abandonQuietly(deps, lockToken, 1_000);
    return;
  }

  const summary = summarizeHistory(item.history);
  const batch = readBatch(item.messages, summary, instance);
  // Runtimes before 0.1.31 poisoned a successor into the previous execution, after its CAN row.
  const terminalAfterCan =
    summary.isContinuedAsNew &&
    item.history.some((event) => event.kind.type === 'OrchestrationFailed');
  if (summary.isContinuedAsNew && !terminalAfterCan && !batch.isContinueAsNew) {
    const backoffMs = unregisteredBackoffMs(options, attemptCount);
    logger.warn('CAN successor start not visible, abandoning instance inputs', {
      instance,
      attemptCount,
      backoffMs,
    });
    await abandonQuietly(deps, lockToken, backoffMs);
    return;
  }
  if (summary.isCompleted || summary.isFailed || terminalAfterCan) {
    await ackTurn(deps, lockToken, {
      executionId: item.executionId,
      delta: [],
      workerItems: [],
      orchestratorItems: await collisionNotifications(deps, item, summary),
      metadata: {},
      cancelledActivities: [],
    });
    return;
  }

  const collisions =
    item.history.length > 0 ? await collisionNotifications(deps, item, summary) : [];
  const executionId = batch.isContinueAsNew ? item.executionId + 1 : item.executionId;
  const persisted: readonly Event[] = batch.isContinueAsNew ? [] : item.history;

  let delta: Event[] = [];
  let workerItems: WorkItem[] = [];
  let orchestratorItems: WorkItem[] = [];
  let cancelled: ScheduledActivityIdentifier[] = [];
  if (batch.orchestrationName !== '') {
    const resolved =
      batch.version !== null
        ? deps.orchestrations.resolveExact(batch.orchestrationName, batch.version)
        : deps.orchestrations.resolveLatest(batch.orchestrationName);
    if (!resolved) {
      const backoffMs = unregisteredBackoffMs(options, attemptCount);
      logger.warn('Orchestration not registered, abandoning with backoff', {
        instance,
        orchestrationName: batch.orchestrationName,
        version: batch.version ?? 'latest',
        attemptCount,
        backoffMs,
      });
      await abandonQuietly(deps, lockToken, backoffMs);
      return;
    }
    const started =
      persisted.length === 0 ? [startedEvent(instance, executionId, batch, resolved.version)] : [];
    if (started.length > 0 || batch.isContinueAsNew) deps.metrics.increment('orchStarts');
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
    logger.error(`${violation}, failing orchestration`, { instance, executionId });
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
  recordOutcome(deps, delta);

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
    delta,
    workerItems,
    orchestratorItems: [...orchestratorItems, ...collisions],
    metadata,
    cancelledActivities: cancelled,
  });
  if (!failure) return;

  logger.warn('Failed to ack orchestration item, failing orchestration', {
    instance,
    error: failure.message,
  });
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
    delta: failed,
    workerItems: [],
    orchestratorItems: collisions,
    metadata: metadataFromDelta(failed),
    cancelledActivities: [],
  });
  if (fallback) {
    logger.warn('Failed to commit failure event, abandoning lock', {
      instance,
      error: fallback.message,
    });
    await abandonQuietly(deps, lockToken, 50);
  }
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

function recordOutcome(deps: TurnDependencies, delta: readonly Event[]): void {
  for (const event of delta) {
    const kind = event.kind;
    if (kind.type === 'OrchestrationCompleted') deps.metrics.increment('orchCompletions');
    if (kind.type === 'OrchestrationContinuedAsNew') deps.metrics.increment('orchContinueAsNew');
    if (kind.type !== 'OrchestrationFailed') continue;
    deps.metrics.increment('orchFailures');
    const category = kind.details.type;
    if (category === 'Application') deps.metrics.increment('orchApplicationErrors');
    else if (category === 'Infrastructure') deps.metrics.increment('orchInfrastructureErrors');
    else if (category === 'Configuration') deps.metrics.increment('orchConfigurationErrors');
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
