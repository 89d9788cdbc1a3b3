import { invariantResult, type InvariantResult } from './invariant-result.js';

/** The size of one execution's history. */
export interface ExecutionSize {
  readonly schema: string;
  readonly instance: string;
  readonly executionId: number;
  readonly events: number;
  readonly bytes: number;
}

/** The largest executions of a run and how many executions there were. */
export interface HistorySizes {
  /** The largest executions by events and by bytes (a handful each is enough). */
  readonly largest: readonly ExecutionSize[];
  readonly executions: number;
}

/**
 * History stayed bounded: continue-as-new keeps every execution under `maxEvents` events and
 * `maxBytes` bytes of event JSON.
 */
export function checkHistoryBounded(
  sizes: HistorySizes,
  maxEvents: number,
  maxBytes: number,
): InvariantResult {
  const violations = sizes.largest
    .filter((size) => size.events > maxEvents || size.bytes > maxBytes)
    .map(
      (size) =>
        `${size.schema}/${size.instance} execution ${size.executionId} holds ${size.events} events, ${size.bytes} bytes`,
    );
  if (sizes.executions === 0) violations.push('no execution was found: there was nothing to judge');
  const maxSeenEvents = Math.max(0, ...sizes.largest.map((size) => size.events));
  const maxSeenBytes = Math.max(0, ...sizes.largest.map((size) => size.bytes));
  return invariantResult(
    'history-bounded',
    `${sizes.executions} executions, the largest ${maxSeenEvents} events / ${maxSeenBytes} bytes (bounds ${maxEvents} / ${maxBytes})`,
    {
      executions: sizes.executions,
      maxEvents: maxSeenEvents,
      maxBytes: maxSeenBytes,
      eventBound: maxEvents,
      byteBound: maxBytes,
    },
    violations,
  );
}
