import type { Event } from '../model/event.js';
import type { WorkItem } from '../model/work-item.js';

/** Whom a fetched batch belongs to: the orchestration, version and execution its turn runs. */
export interface BatchOrigin {
  /** The orchestration the turn runs. */
  readonly orchestrationName: string;
  /** The orchestration version the turn runs. */
  readonly version: string;
  /** The execution the turn runs. */
  readonly executionId: number;
  /** The execution's history (empty when it could not be decoded). */
  readonly history: Event[];
  /** Why the stored history could not be decoded; `null` when it could. */
  readonly historyError: string | null;
}

/**
 * Where a batch belongs when its instance has no instance row yet, as duroxide's providers decide
 * in `fetch_orchestration_item`: the `OrchestrationStarted` of a history acked without metadata,
 * else a start message in the batch, else (undecodable history) an unknown owner the runtime can
 * poison. `undefined` when none applies: the batch may be racing its start.
 * @param history the latest execution's history, `historyError` why it did not decode.
 */
export function batchOriginWithoutInstance(
  history: Event[],
  historyError: string | null,
  messages: readonly WorkItem[],
): BatchOrigin | undefined {
  const started = history.find((event) => event.kind.type === 'OrchestrationStarted');
  if (started?.kind.type === 'OrchestrationStarted') {
    const { name, version } = started.kind;
    return { orchestrationName: name, version, executionId: 1, history, historyError };
  }
  const start = messages.find(
    (item) => item.type === 'StartOrchestration' || item.type === 'ContinueAsNew',
  );
  if (start?.type === 'StartOrchestration' || start?.type === 'ContinueAsNew') {
    return {
      orchestrationName: start.orchestration,
      version: start.version ?? 'unknown',
      executionId: 1,
      history: [],
      historyError,
    };
  }
  // Undecodable history still belongs to someone: hand it out so the runtime can poison it.
  if (historyError !== null) {
    return {
      orchestrationName: 'unknown',
      version: 'unknown',
      executionId: 1,
      history,
      historyError,
    };
  }
  return undefined;
}
