import type { Event } from '../../model/event.js';

/**
 * What the runtime reads from an execution's history before a turn, as duroxide's
 * `HistoryManager` metadata: the orchestration it runs, its parent link and whether it ended.
 * @internal
 */
export interface HistorySummary {
  readonly orchestrationName: string | null;
  readonly orchestrationVersion: string | null;
  readonly input: string | null;
  readonly parentInstance: string | null;
  readonly parentId: number | null;
  readonly parentExecutionId: number | null;
  readonly isCompleted: boolean;
  readonly isFailed: boolean;
  readonly isContinuedAsNew: boolean;
  readonly isEmpty: boolean;
}

/** Summarises a history: the last `OrchestrationStarted` and the terminal event after it. */
export function summarizeHistory(history: readonly Event[]): HistorySummary {
  let startIndex = -1;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    if (history[index]?.kind.type === 'OrchestrationStarted') {
      startIndex = index;
      break;
    }
  }
  const start = history[startIndex]?.kind;
  let isCompleted = false;
  let isFailed = false;
  let isContinuedAsNew = false;
  for (let index = startIndex + 1; startIndex >= 0 && index < history.length; index += 1) {
    const type = history[index]?.kind.type;
    if (type === 'OrchestrationCompleted') isCompleted = true;
    else if (type === 'OrchestrationFailed') isFailed = true;
    else if (type === 'OrchestrationContinuedAsNew') isContinuedAsNew = true;
    else continue;
    break;
  }
  const started = start?.type === 'OrchestrationStarted' ? start : undefined;
  return {
    orchestrationName: started?.name ?? null,
    orchestrationVersion: started?.version ?? null,
    input: started?.input ?? null,
    parentInstance: started?.parentInstance ?? null,
    parentId: started?.parentId ?? null,
    parentExecutionId: started?.parentExecutionId ?? null,
    isCompleted,
    isFailed,
    isContinuedAsNew,
    isEmpty: history.length === 0,
  };
}

/** The pinned handler version, where `"0.0.0"` counts as none (duroxide's `version()`). */
export function summaryVersion(summary: HistorySummary): string | null {
  const version = summary.orchestrationVersion;
  return version === null || version === '0.0.0' ? null : version;
}

/** One more than the highest event id of the histories (1 when empty). */
export function nextEventId(...histories: ReadonlyArray<readonly Event[]>): number {
  let max = 0;
  for (const history of histories) for (const event of history) max = Math.max(max, event.eventId);
  return max + 1;
}
