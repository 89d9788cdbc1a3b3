import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  decodeErrorDetails,
  decodeEvent,
  decodeWorkItem,
  encodeErrorDetails,
  encodeEvent,
  encodeWorkItem,
} from '@duro/core';
import { describe, expect, it } from 'vitest';
import { loadDuroNative } from './native-addon.js';

const native = await loadDuroNative();

// The golden files of @duro/core: written by duroxide's serde (tools/wire-fixtures) and
// captured from a real Rust 0.1.30 deployment on PostgreSQL.
const fixtures = fileURLToPath(new URL('../../core/src/model/__fixtures__/', import.meta.url));

function goldenFiles(folder: string): Array<[string, string]> {
  const dir = join(fixtures, folder);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file, readFileSync(join(dir, file), 'utf8')]);
}

interface CapturedScenario {
  readonly scenario: string;
  readonly history: ReadonlyArray<{ readonly event_data: string }>;
}

/** Every history row Rust duroxide 0.1.30 wrote, except the one rewritten to be corrupt. */
function capturedEvents(): Array<[string, string]> {
  const dir = join(fixtures, 'rust-duroxide-0.1.30');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json') && file !== 'sqlite-serde-reference.json')
    .flatMap((file) => {
      const capture = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CapturedScenario;
      return capture.history
        .filter((row) => !row.event_data.includes('CorruptedByFixtureGenerator'))
        .map((row, index): [string, string] => [`${capture.scenario}#${index}`, row.event_data]);
    });
}

describe('history and queue JSON decoded by one side and written back by the other', () => {
  it('every event duroxide writes decodes in duro and both write it back byte-identical', () => {
    const events = [...goldenFiles('events'), ...capturedEvents()];
    expect(events.length).toBeGreaterThan(100);
    for (const [name, json] of events) {
      const duroJson = encodeEvent(decodeEvent(json));
      expect(duroJson, name).toBe(json);
      expect(native.roundTripEvent(duroJson), name).toEqual({ json, error: null });
    }
  });

  it('every work item duroxide writes decodes in duro and both write it back byte-identical', () => {
    for (const [name, json] of goldenFiles('work-items')) {
      const duroJson = encodeWorkItem(decodeWorkItem(json));
      expect(duroJson, name).toBe(json);
      expect(native.roundTripWorkItem(duroJson), name).toEqual({ json, error: null });
    }
  });

  it('every error detail duroxide writes decodes in duro and both write it back byte-identical', () => {
    for (const [name, json] of goldenFiles('error-details')) {
      const duroJson = encodeErrorDetails(decodeErrorDetails(json));
      expect(duroJson, name).toBe(json);
      expect(native.roundTripErrorDetails(duroJson), name).toEqual({ json, error: null });
    }
  });

  it('JSON that is not a duroxide event is refused by serde with its error text', () => {
    const unknownType = native.roundTripEvent(
      '{"event_id":1,"source_event_id":null,"instance_id":"i","execution_id":1,' +
        '"timestamp_ms":0,"duroxide_version":"0.1.32","type":"NoSuchEvent"}',
    );
    expect(unknownType.json).toBeNull();
    expect(unknownType.error).toContain('unknown variant `NoSuchEvent`');
    expect(native.roundTripWorkItem('{"NoSuchItem":{}}').error).toContain('unknown variant');
  });
});
