import type { WorkItem, WorkItemOf } from '../../model/work-item.js';
import { summaryVersion, type HistorySummary } from './history-summary.js';

/**
 * A fetched batch classified as duroxide's `WorkItemReader` does: the start item (a client start
 * only for an instance without history, else the continue-as-new start), the messages the turn
 * consumes (queue messages carried by continue-as-new first), and what the execution runs.
 * @internal
 */
export interface BatchReading {
  readonly startItem: WorkItemOf<'StartOrchestration'> | WorkItemOf<'ContinueAsNew'> | null;
  readonly completions: readonly WorkItem[];
  /** Empty when neither the batch nor the history names one. */
  readonly orchestrationName: string;
  readonly input: string;
  /** The exact version to run; `null` lets the registry policy choose. */
  readonly version: string | null;
  readonly parentInstance: string | null;
  readonly parentId: number | null;
  readonly parentExecutionId: number | null;
  readonly isContinueAsNew: boolean;
}

/** Classifies a batch against the instance's current history. */
export function readBatch(
  messages: readonly WorkItem[],
  history: HistorySummary,
  instance: string,
): BatchReading {
  let startItem: BatchReading['startItem'] = null;
  let completions: WorkItem[] = [];
  for (const item of messages) {
    switch (item.type) {
      case 'StartOrchestration':
        // 0.1.32: a duplicate start can never replace the pinned handler, version or input.
        if (history.isEmpty && startItem === null) startItem = item;
        break;
      case 'ContinueAsNew':
        startItem ??= item;
        break;
      case 'ActivityExecute':
        break;
      case 'ActivityCompleted':
      case 'ActivityFailed':
      case 'TimerFired':
      case 'ExternalRaised':
      case 'QueueMessage':
      case 'SubOrchCompleted':
      case 'SubOrchFailed':
      case 'CancelInstance':
        completions.push(item);
        break;
    }
  }
  if (startItem) {
    const continued = startItem.type === 'ContinueAsNew';
    if (startItem.type === 'ContinueAsNew') {
      const carried: WorkItem[] = startItem.carryForwardEvents.map(([name, data]) => ({
        type: 'QueueMessage',
        instance,
        name,
        data,
      }));
      completions = [...carried, ...completions];
    }
    return {
      startItem,
      completions,
      orchestrationName: startItem.orchestration,
      input: startItem.input,
      version: startItem.version,
      parentInstance: startItem.parentInstance ?? null,
      parentId: startItem.parentId ?? null,
      parentExecutionId: startItem.parentExecutionId ?? null,
      isContinueAsNew: continued,
    };
  }
  return {
    startItem,
    completions,
    orchestrationName: history.orchestrationName ?? '',
    input: history.input ?? '',
    version: summaryVersion(history),
    parentInstance: history.parentInstance,
    parentId: history.parentId,
    parentExecutionId: history.parentExecutionId,
    isContinueAsNew: false,
  };
}
