import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../model/event.js';
import { decodeEvent } from '../../model/event-codec.js';
import type { KvEntry } from '../../provider/orchestration-item.js';
import { createDefaultLogger } from '../logger.js';
import { ReplayEngine } from './replay-engine.js';
import { FIXTURE_ORCHESTRATIONS } from './rust-fixture-orchestrations.fixture.js';

const FIXTURES = new URL('../../model/__fixtures__/rust-duroxide-0.1.30/', import.meta.url);

interface FixtureFile {
  readonly history: ReadonlyArray<{ readonly event_data: string }>;
}

/** Every execution of every instance a fixture recorded, events in id order. */
function executions(
  file: string,
): Array<{ instance: string; executionId: number; events: Event[] }> {
  const fixture = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as FixtureFile;
  const byKey = new Map<string, Event[]>();
  for (const row of fixture.history) {
    const event = decodeEvent(row.event_data);
    const key = `${event.instanceId}\u0000${event.executionId}`;
    const list = byKey.get(key) ?? [];
    list.push(event);
    byKey.set(key, list);
  }
  return [...byKey.values()].map((events) => {
    events.sort((a, b) => a.eventId - b.eventId);
    const first = events[0] as Event;
    return { instance: first.instanceId, executionId: first.executionId, events };
  });
}

/** The committed KV state an execution starts from: every KV event of the earlier executions. */
function kvBefore(
  all: ReturnType<typeof executions>,
  instance: string,
  executionId: number,
): Map<string, KvEntry> {
  const state = new Map<string, KvEntry>();
  for (const execution of all.filter(
    (e) => e.instance === instance && e.executionId < executionId,
  )) {
    for (const { kind } of execution.events) {
      if (kind.type === 'KeyValueSet')
        state.set(kind.key, { value: kind.value, lastUpdatedAtMs: kind.lastUpdatedAtMs });
      if (kind.type === 'KeyValueCleared') state.delete(kind.key);
      if (kind.type === 'KeyValuesCleared') state.clear();
    }
  }
  return state;
}

const TERMINAL = new Set([
  'OrchestrationCompleted',
  'OrchestrationFailed',
  'OrchestrationContinuedAsNew',
]);
/** Events that feed a turn: what arrived, as opposed to what the orchestration decided. */
const INPUTS = new Set([
  'OrchestrationStarted',
  'ActivityCompleted',
  'ActivityFailed',
  'TimerFired',
  'SubOrchestrationCompleted',
  'SubOrchestrationFailed',
  'ExternalEvent',
  'QueueEventDelivered',
  'OrchestrationCancelRequested',
]);

/** An event without what differs on every run (timestamps, timer deadlines, the stamp). */
function normalized(event: Event): unknown {
  const {
    fireAtMs: _fire,
    lastUpdatedAtMs: _updated,
    ...kind
  } = event.kind as Record<string, unknown>;
  return { eventId: event.eventId, sourceEventId: event.sourceEventId, kind };
}

/** Subscription breadcrumbs the dispatcher (not the engine) writes when an execution ends. */
function writtenByEngine(event: Event): boolean {
  return !('reason' in event.kind && event.kind.reason === 'orchestration_terminal');
}
// poison-corrupt-history holds a row rewritten to an unknown type on purpose.
const UNREADABLE = new Set(['sqlite-serde-reference.json', 'poison-corrupt-history.json']);
const files = readdirSync(FIXTURES).filter(
  (name) => name.endsWith('.json') && !UNREADABLE.has(name),
);

describe('histories written by Rust duroxide 0.1.30', () => {
  const cases = files.flatMap((file) => {
    const all = executions(file);
    return all.flatMap((execution) => {
      const started = execution.events[0]?.kind;
      if (started?.type !== 'OrchestrationStarted') return [];
      const handler = FIXTURE_ORCHESTRATIONS[started.name]?.[started.version];
      if (!handler) return [];
      return [
        {
          title: `${file} ${execution.instance}#${execution.executionId}`,
          all,
          execution,
          started,
          handler,
        },
      ];
    });
  });

  it('cover the scenarios that have TypeScript twins', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases.map((c) => [c.title, c] as const))(
    'replay to the same decisions without nondeterminism: %s',
    (_title, c) => {
      const events = c.execution.events;
      const terminalIndex = events.findIndex((event) => TERMINAL.has(event.kind.type));
      const end = terminalIndex < 0 ? events.length : terminalIndex;
      let lastInput = 0;
      for (let index = 0; index < end; index += 1) {
        if (INPUTS.has(events[index]?.kind.type ?? '')) lastInput = index;
      }
      // Replay everything up to the last turn's input: the engine must then make the last
      // turn's decisions again, exactly as Rust recorded them.
      const replayed = events.slice(0, lastInput + 1);
      const engine = new ReplayEngine({
        instance: c.execution.instance,
        executionId: c.execution.executionId,
        history: replayed,
        persistedLength: replayed.length,
        kvSnapshot: kvBefore(c.all, c.execution.instance, c.execution.executionId),
        logger: createDefaultLogger('error'),
      });
      const result = engine.execute(c.handler, c.started.input, c.started.name, c.started.version);
      expect(engine.historyDelta.map(normalized)).toEqual(
        events
          .slice(lastInput + 1, end)
          .filter(writtenByEngine)
          .map(normalized),
      );
      const kind = events[terminalIndex]?.kind;
      if (kind === undefined) {
        expect(result.type).toBe('Continue');
      } else if (kind.type === 'OrchestrationCompleted') {
        expect(result.type).toBe('Completed');
        if (result.type === 'Completed')
          expect(JSON.parse(result.output)).toEqual(JSON.parse(kind.output));
      } else if (kind.type === 'OrchestrationContinuedAsNew') {
        expect(result).toMatchObject({ type: 'ContinueAsNew', input: kind.input });
      } else if (
        kind.type === 'OrchestrationFailed' &&
        kind.details.type === 'Application' &&
        kind.details.kind.type === 'Cancelled'
      ) {
        expect(result).toEqual({ type: 'Cancelled', reason: kind.details.kind.reason });
      } else if (kind.type === 'OrchestrationFailed') {
        // duroxide-node records a thrown Error as String(error); duro records its message alone.
        const details = { ...kind.details };
        if (details.type === 'Application')
          details.message = details.message.replace(/^Error: /, '');
        expect(result).toEqual({ type: 'Failed', details });
      }
    },
  );
});
