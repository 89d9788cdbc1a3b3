import type { ScenarioOutcome } from '../ts/index.js';

/** One event with what legitimately differs between two runs taken out. */
export type NormalisedEvent = Record<string, unknown>;

/** An instance's executions as comparable data. */
export interface NormalisedInstance {
  readonly instance: string;
  readonly executions: ReadonlyArray<{
    readonly executionId: number;
    readonly events: readonly NormalisedEvent[];
  }>;
}

/** Events that record work finishing, whose order among themselves is a race between workers. */
const COMPLETIONS = new Set([
  'ActivityCompleted',
  'ActivityFailed',
  'SubOrchestrationCompleted',
  'SubOrchestrationFailed',
  'TimerFired',
]);

/**
 * Sorts each run of consecutive completion events by the event they complete and renumbers
 * the run: two activities finishing at about the same time may be recorded in either order, on
 * any provider.
 */
function orderCompletionRuns(events: NormalisedEvent[]): NormalisedEvent[] {
  const ordered: NormalisedEvent[] = [];
  let run: NormalisedEvent[] = [];
  const flush = (): void => {
    const firstId = run[0]?.event_id;
    run.sort((a, b) => Number(a.source_event_id) - Number(b.source_event_id));
    run.forEach((event, offset) => ordered.push({ ...event, event_id: Number(firstId) + offset }));
    run = [];
  };
  for (const event of events) {
    if (COMPLETIONS.has(String(event.type))) {
      run.push(event);
    } else {
      flush();
      ordered.push(event);
    }
  }
  flush();
  return ordered;
}

/** An epoch-milliseconds time between 2001 and 2286, as duroxide's clock writes it. */
const EPOCH_MS = /\b1\d{12}\b/g;

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Run-specific text normalised: the instance prefix, GUIDs and epoch-milliseconds times. */
function normaliseText(text: string, prefix: string): string {
  return text.split(prefix).join('<prefix>').replace(GUID, '<guid>').replace(EPOCH_MS, '<time>');
}

/** How a scenario ended, with run-specific values normalised as in its histories. */
export function normaliseEnd(outcome: ScenarioOutcome, prefix: string): Record<string, unknown> {
  const text = (value: string | null) => (value === null ? null : normaliseText(value, prefix));
  return {
    status: outcome.status,
    output: text(outcome.output),
    error: text(outcome.error),
    errorDetails: text(outcome.errorDetails),
    customStatus: text(outcome.customStatus),
  };
}

/**
 * The histories of a scenario outcome with run-specific values normalised: the instance prefix
 * becomes `<prefix>`; timestamps (`timestamp_ms`, the times of timer and key-value events, and
 * any epoch-milliseconds time inside a string, such as the clock's result) and GUIDs become
 * placeholders; completions recorded together are put in one order (see
 * `orderCompletionRuns`). Everything else (event ids, order, types, payloads) stays as written.
 */
export function normaliseHistories(outcome: ScenarioOutcome, prefix: string): NormalisedInstance[] {
  const unprefix = (text: string): string => text.split(prefix).join('<prefix>');
  return outcome.instances.map((instance) => ({
    instance: unprefix(instance.instanceId),
    executions: instance.executions.map((execution) => ({
      executionId: execution.executionId,
      events: orderCompletionRuns(
        execution.events.map((json) => {
          const event = JSON.parse(unprefix(json).replace(GUID, '<guid>')) as NormalisedEvent;
          delete event.timestamp_ms;
          for (const key of ['fire_at_ms', 'last_updated_at_ms']) {
            if (key in event) event[key] = '<time>';
          }
          for (const [key, value] of Object.entries(event)) {
            if (typeof value === 'string') event[key] = value.replace(EPOCH_MS, '<time>');
          }
          return event;
        }),
      ),
    })),
  }));
}
