import type { EventKind } from '../../model/event.js';
import type { Action } from './action.js';

// Nondeterminism messages name the expected and the actual decision in the text Rust's `{:?}`
// gives them, so a failure reads the same whether a Rust or a TypeScript worker detected it.

type Field = readonly [name: string, value: string];

function quote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code === 0) out += '\\0';
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

function option(text: string | null | undefined): string {
  return text == null ? 'None' : `Some(${quote(text)})`;
}

function struct(name: string, fields: readonly Field[]): string {
  if (fields.length === 0) return name;
  return `${name} { ${fields.map(([key, value]) => `${key}: ${value}`).join(', ')} }`;
}

/** An action as Rust's `Debug` prints it. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'CallActivity':
      return struct(action.type, [
        ['scheduling_event_id', String(action.schedulingEventId)],
        ['name', quote(action.name)],
        ['input', quote(action.input)],
        ['session_id', option(action.sessionId)],
        ['tag', option(action.tag)],
      ]);
    case 'CreateTimer':
      return struct(action.type, [
        ['scheduling_event_id', String(action.schedulingEventId)],
        ['fire_at_ms', String(action.fireAtMs)],
      ]);
    case 'WaitExternal':
    case 'DequeueEvent':
      return struct(action.type, [
        ['scheduling_event_id', String(action.schedulingEventId)],
        ['name', quote(action.name)],
      ]);
    case 'StartOrchestrationDetached':
    case 'StartSubOrchestration':
      return struct(action.type, [
        ['scheduling_event_id', String(action.schedulingEventId)],
        ['name', quote(action.name)],
        ['version', option(action.version)],
        ['instance', quote(action.instance)],
        ['input', quote(action.input)],
      ]);
    case 'ContinueAsNew':
      return struct(action.type, [
        ['input', quote(action.input)],
        ['version', option(action.version)],
      ]);
    case 'UpdateCustomStatus':
      return struct(action.type, [['status', option(action.status)]]);
    case 'SetKeyValue':
      return struct(action.type, [
        ['key', quote(action.key)],
        ['value', quote(action.value)],
        ['last_updated_at_ms', String(action.lastUpdatedAtMs)],
      ]);
    case 'ClearKeyValue':
      return struct(action.type, [['key', quote(action.key)]]);
    case 'ClearKeyValues':
      return action.type;
  }
}

/** A schedule-like event kind as Rust's `Debug` prints it; other kinds by their name. */
export function describeEventKind(kind: EventKind): string {
  switch (kind.type) {
    case 'ActivityScheduled':
      return struct(kind.type, [
        ['name', quote(kind.name)],
        ['input', quote(kind.input)],
        ['session_id', option(kind.sessionId)],
        ['tag', option(kind.tag)],
      ]);
    case 'TimerCreated':
      return struct(kind.type, [['fire_at_ms', String(kind.fireAtMs)]]);
    case 'ExternalSubscribed':
    case 'QueueSubscribed':
      return struct(kind.type, [['name', quote(kind.name)]]);
    case 'SubOrchestrationScheduled':
    case 'OrchestrationChained':
      return struct(kind.type, [
        ['name', quote(kind.name)],
        ['instance', quote(kind.instance)],
        ['input', quote(kind.input)],
      ]);
    case 'CustomStatusUpdated':
      return struct(kind.type, [['status', option(kind.status)]]);
    case 'KeyValueSet':
      return struct(kind.type, [
        ['key', quote(kind.key)],
        ['value', quote(kind.value)],
        ['last_updated_at_ms', String(kind.lastUpdatedAtMs)],
      ]);
    case 'KeyValueCleared':
      return struct(kind.type, [['key', quote(kind.key)]]);
    default:
      return kind.type;
  }
}

/** A set of ids as Rust's `Debug` prints a `HashSet<u64>` (sorted here, for stable text). */
export function describeIdSet(ids: Iterable<number>): string {
  return `{${[...ids].sort((a, b) => a - b).join(', ')}}`;
}
