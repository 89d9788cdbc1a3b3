import { describe, expect, it } from 'vitest';
import { decodeEvent, encodeEvent, eventWireTag } from './event-codec.js';
import {
  capturedEvents,
  capturedWorkItems,
  type CapturedText,
} from './golden-fixtures.test-support.js';
import { EVENT_TYPES } from './golden-samples.test-support.js';
import { decodeWorkItem, encodeWorkItem } from './work-item-codec.js';
import { WireFormatError } from './wire-format-error.js';

// Rows a Rust duroxide 0.1.30 + duroxide-pg 0.1.35 deployment stored, see
// __fixtures__/rust-duroxide-0.1.30/README.md.
const SQLITE = 'sqlite-serde-reference.json';
// The one history row the capture tool rewrote on purpose, to poison an instance.
const CORRUPTED_TYPE = 'CorruptedByFixtureGenerator';

const events = capturedEvents();
const workItems = capturedWorkItems();
const isCorrupted = (row: CapturedText) => row.text.includes(`"type":"${CORRUPTED_TYPE}"`);
const readableEvents = events.filter((row) => !isCorrupted(row));
// PostgreSQL stores a work item either as serde's compact text or, when it went through a jsonb
// parameter of ack_orchestration_item, as jsonb's own rendering, which puts a space after ':'.
const isJsonbText = (row: CapturedText) => /^\{"[A-Za-z]+": \{/.test(row.text);
const postgresItems = workItems.filter((row) => row.file !== SQLITE);
const compactItems = postgresItems.filter((row) => !isJsonbText(row));
const jsonbItems = postgresItems.filter(isJsonbText);
const sqliteItems = workItems.filter((row) => row.file === SQLITE);

describe('rows written by a Rust duroxide 0.1.30 deployment', () => {
  it('the capture holds the rows the tests below rely on', () => {
    expect(events.filter((row) => row.file !== SQLITE).length).toBe(476);
    expect(events.filter((row) => row.file === SQLITE).length).toBe(299);
    expect(compactItems.length).toBeGreaterThan(0);
    expect(jsonbItems.length).toBeGreaterThan(0);
    expect(sqliteItems.length).toBeGreaterThan(0);
    expect(sqliteItems.some(isJsonbText)).toBe(false);
  });

  it('every readable history row decodes and re-encodes to the same bytes', () => {
    for (const row of readableEvents) {
      expect(encodeEvent(decodeEvent(row.text)), row.row).toBe(row.text);
    }
  });

  it('the rows contain every event variant under its wire tag', () => {
    const tags = new Set(readableEvents.map((row) => decodeEvent(row.text).kind.type));
    expect([...tags].sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      expect(
        readableEvents.some((row) => row.text.includes(`"type":"${eventWireTag(type)}"`)),
      ).toBe(true);
    }
  });

  it('a history row with an event type duroxide does not know fails, naming the type', () => {
    const corrupted = events.filter(isCorrupted);
    expect(corrupted.length).toBe(1);
    for (const row of corrupted) {
      const attempt = () => decodeEvent(row.text);
      expect(attempt).toThrow(WireFormatError);
      expect(attempt).toThrow(`unknown history event type "${CORRUPTED_TYPE}" at $.type`);
    }
  });

  it('every work item PostgreSQL kept as serde text re-encodes to the same bytes', () => {
    for (const row of compactItems) {
      expect(encodeWorkItem(decodeWorkItem(row.text)), row.row).toBe(row.text);
    }
  });

  it('every work item PostgreSQL re-rendered as jsonb decodes and re-encodes to equal JSON', () => {
    for (const row of jsonbItems) {
      const encoded = encodeWorkItem(decodeWorkItem(row.text));
      expect(JSON.parse(encoded), row.row).toEqual(JSON.parse(row.text));
    }
  });

  it('every work item of the SQLite serde reference re-encodes to the same bytes', () => {
    const variants = new Set<string>();
    for (const row of sqliteItems) {
      const item = decodeWorkItem(row.text);
      variants.add(item.type);
      expect(encodeWorkItem(item), row.row).toBe(row.text);
    }
    expect(variants.size).toBe(11);
  });

  it('the work items a poison failure embeds as text re-encode to the same bytes', () => {
    let embedded = 0;
    for (const row of readableEvents) {
      const event = decodeEvent(row.text);
      if (event.kind.type !== 'OrchestrationFailed' && event.kind.type !== 'ActivityFailed') {
        continue;
      }
      const details = event.kind.details;
      if (details.type !== 'Poison' || details.messageType.type === 'FailedDeserialization') {
        continue;
      }
      const parsed: unknown = JSON.parse(details.message);
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        const text = JSON.stringify(item);
        expect(encodeWorkItem(decodeWorkItem(text)), row.row).toBe(text);
        embedded++;
      }
    }
    expect(embedded).toBeGreaterThan(0);
  });
});
