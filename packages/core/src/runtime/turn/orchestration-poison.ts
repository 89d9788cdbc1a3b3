import { errorDisplayMessage, type ErrorDetails } from '../../model/error-details.js';
import type { Event } from '../../model/event.js';
import type { WorkItem } from '../../model/work-item.js';
import { encodeWorkItem } from '../../model/work-item-codec.js';
import type { OrchestrationItem } from '../../provider/orchestration-item.js';
import { newEvent } from '../runtime-version.js';
import { nextEventId, summarizeHistory } from './history-summary.js';
import type { ProviderError } from '../../provider/provider-error.js';
import { ackTurn, resolveParentExecutionId, type TurnDependencies } from './turn-commit.js';

/** The event id duroxide gives the failure of an instance whose history cannot be decoded. */
const UNDECODABLE_HISTORY_EVENT_ID = 99999;

/**
 * Ends an instance whose messages exceeded `maxAttempts`, as duroxide's
 * `fail_orchestration_as_poison`. An undecodable history gets one `OrchestrationFailed` at event
 * id 99999; otherwise the failure (with the batch as JSON) is appended, after a new
 * `OrchestrationStarted` when the execution has no history, and a parent is notified. A batch
 * between executions fails the successor execution, so the previous one stays ContinuedAsNew.
 *
 * The disposition is counted only once its ack committed (`orchPoison`). A rejected ack (an
 * expired or stolen lock, duroxide#47) leaves the messages in the queue: it is counted in
 * `orchPoisonFailed` instead and logged as such, never as poison.
 * @internal
 */
export async function failAsPoison(
  deps: TurnDependencies,
  item: OrchestrationItem,
  lockToken: string,
  attemptCount: number,
): Promise<'poisoned' | 'poison_failed'> {
  const maxAttempts = deps.options.maxAttempts;
  if (item.historyError !== null) {
    const details: ErrorDetails = {
      type: 'Poison',
      attemptCount,
      maxAttempts,
      messageType: {
        type: 'FailedDeserialization',
        instance: item.instance,
        executionId: item.executionId,
        error: item.historyError,
      },
      message: item.historyError,
    };
    const failure = await ackTurn(deps, lockToken, {
      executionId: item.executionId,
      historyDelta: [
        newEvent(UNDECODABLE_HISTORY_EVENT_ID, item.instance, item.executionId, null, {
          type: 'OrchestrationFailed',
          details,
        }),
      ],
      workerItems: [],
      orchestratorItems: [],
      metadata: {
        status: 'Failed',
        output: errorDisplayMessage(details),
        orchestrationName: item.orchestrationName,
        orchestrationVersion: item.version,
      },
      cancelledActivities: [],
    });
    return countDisposition(deps, failure);
  }

  const latest = summarizeHistory(item.history);
  const successor = latest.isContinuedAsNew;
  const executionId = successor ? item.executionId + 1 : item.executionId;
  const details: ErrorDetails = {
    type: 'Poison',
    attemptCount,
    maxAttempts,
    messageType: { type: 'Orchestration', instance: item.instance, executionId },
    message: `[${item.messages.map(encodeWorkItem).join(',')}]`,
  };
  const history = successor ? [] : item.history;
  const delta: Event[] = [];
  let parent: { instance: string; id: number; stamped: number | null } | null = null;
  if (history.length === 0) {
    const start = startFrom(item.messages, successor);
    const name = start?.orchestration ?? item.orchestrationName;
    const parentInstance = start ? (start.parentInstance ?? null) : latest.parentInstance;
    const parentId = start ? (start.parentId ?? null) : latest.parentId;
    const stamped = start ? (start.parentExecutionId ?? null) : latest.parentExecutionId;
    if (parentInstance !== null && parentId !== null)
      parent = { instance: parentInstance, id: parentId, stamped };
    delta.push(
      newEvent(1, item.instance, executionId, null, {
        type: 'OrchestrationStarted',
        name,
        version: item.version,
        input: start?.input ?? '',
        parentInstance,
        parentId,
        ...(stamped !== null ? { parentExecutionId: stamped } : {}),
        ...(start?.type === 'ContinueAsNew'
          ? { carryForwardEvents: start.carryForwardEvents }
          : {}),
      }),
    );
  } else if (latest.parentInstance !== null && latest.parentId !== null) {
    parent = {
      instance: latest.parentInstance,
      id: latest.parentId,
      stamped: latest.parentExecutionId,
    };
  }
  delta.push(
    newEvent(nextEventId(history, delta), item.instance, executionId, null, {
      type: 'OrchestrationFailed',
      details,
    }),
  );

  const orchestratorItems: WorkItem[] = [];
  if (parent) {
    orchestratorItems.push({
      type: 'SubOrchFailed',
      parentInstance: parent.instance,
      parentExecutionId: await resolveParentExecutionId(deps, parent.instance, parent.stamped),
      parentId: parent.id,
      details,
    });
  }
  const failure = await ackTurn(deps, lockToken, {
    executionId,
    historyDelta: delta,
    workerItems: [],
    orchestratorItems,
    metadata: {
      status: 'Failed',
      output: errorDisplayMessage(details),
      orchestrationName: item.orchestrationName,
      orchestrationVersion: item.version,
      ...(parent ? { parentInstanceId: parent.instance } : {}),
    },
    cancelledActivities: [],
  });
  return countDisposition(deps, failure);
}

function countDisposition(
  deps: TurnDependencies,
  failure: ProviderError | null,
): 'poisoned' | 'poison_failed' {
  if (failure === null) {
    deps.metrics.increment('orchPoison');
    return 'poisoned';
  }
  deps.metrics.increment('orchPoisonFailed');
  deps.logger.warn(
    { error: failure.message },
    'Poison disposition was not committed (ack failed); the messages are still in the queue',
  );
  return 'poison_failed';
}

/** The start a poisoned batch describes: a continue-as-new start, or a client start (not for a successor). */
function startFrom(messages: readonly WorkItem[], successor: boolean) {
  for (const message of messages) {
    if (message.type === 'ContinueAsNew') return message;
    if (message.type === 'StartOrchestration' && !successor) return message;
  }
  return undefined;
}
