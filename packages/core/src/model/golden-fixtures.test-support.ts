// Test support for the codec tests: readers for the fixture folders, and the round-trip checks
// every golden folder gets.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const fixtures = new URL('./__fixtures__/', import.meta.url);

/** The four directions of one codec. */
export interface GoldenCodec<T> {
  readonly encode: (value: T) => string;
  readonly decode: (json: string) => T;
  readonly toWire: (value: T) => Record<string, unknown>;
  readonly fromWire: (value: unknown) => T;
  /** The variant name of a value, and every variant name there is, for the coverage check. */
  readonly variantOf: (value: T) => string;
  readonly variants: readonly string[];
}

/**
 * Registers, inside the current `describe`, the checks every golden folder gets: each file has a
 * value built in code and each value a file; each file decodes to its value, re-encodes to its
 * own bytes, and is what encoding the value gives; the wire object is serde's, key for key;
 * and together the files cover every variant.
 */
export function checkGoldenFixtures<T>(
  folder: 'events' | 'work-items' | 'error-details',
  expected: Readonly<Record<string, T>>,
  codec: GoldenCodec<T>,
): void {
  const fixtures = goldenFixtures(folder);
  const cases = [...fixtures].map(([name, text]) => ({ name, text, value: expected[name] as T }));

  it(`every file in ${folder}/ has a value built in code, and every such value a file`, () => {
    expect([...fixtures.keys()]).toEqual(Object.keys(expected).sort());
  });

  it(`the files in ${folder}/ cover every variant`, () => {
    const covered = new Set(Object.values(expected).map(codec.variantOf));
    expect([...covered].sort()).toEqual([...codec.variants].sort());
  });

  it.each(cases)('$name decodes to the value built in code', ({ text, value }) => {
    expect(codec.decode(text)).toEqual(value);
  });

  it.each(cases)('$name re-encodes after decoding to the same bytes', ({ text }) => {
    expect(codec.encode(codec.decode(text))).toBe(text);
  });

  it.each(cases)(
    'encoding the $name value built in code gives the serde bytes',
    ({ text, value }) => {
      expect(codec.encode(value)).toBe(text);
    },
  );

  it.each(cases)(
    '$name as a wire object is what JSON.parse gives, keys in serde order',
    ({ text, value }) => {
      const wire = codec.toWire(value);
      expect(wire).toEqual(JSON.parse(text));
      expect(JSON.stringify(wire)).toBe(text);
      expect(codec.fromWire(JSON.parse(text))).toEqual(value);
    },
  );
}

/** The text of one golden file, for checks of a particular file. */
export function goldenFixture(
  folder: 'events' | 'work-items' | 'error-details',
  name: string,
): string {
  const text = goldenFixtures(folder).get(name);
  if (text === undefined) throw new Error(`no fixture ${folder}/${name}.json`);
  return text;
}

/** The golden files of one folder written by tools/wire-fixtures: name (no `.json`) to text. */
export function goldenFixtures(
  folder: 'events' | 'work-items' | 'error-details',
): Map<string, string> {
  const directory = new URL(`${folder}/`, fixtures);
  const names = readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
  return new Map(
    names.map((name) => [name, readFileSync(new URL(`${name}.json`, directory), 'utf8')]),
  );
}

/** One history row or queue row captured from the Rust deployment, with where it came from. */
export interface CapturedText {
  readonly file: string;
  readonly text: string;
  /** The row's label: scenario, instance and event id, or queue and capture sequence. */
  readonly row: string;
}

interface CaptureFile {
  readonly scenario?: string;
  readonly history?: ReadonlyArray<{
    readonly scenario?: string;
    readonly instance_id: string;
    readonly execution_id: number;
    readonly event_id: number;
    readonly event_data: string;
  }>;
  readonly workItems?: ReadonlyArray<{
    readonly scenario?: string;
    readonly seq: number;
    readonly queue: string;
    readonly work_item: string;
  }>;
}

const captures = new URL('rust-duroxide-0.1.30/', fixtures);

function captureFiles(): Array<[string, CaptureFile]> {
  return readdirSync(captures)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => [
      file,
      JSON.parse(readFileSync(new URL(file, captures), 'utf8')) as CaptureFile,
    ]);
}

/** Every stored history text of the captured Rust deployment (PostgreSQL and SQLite). */
export function capturedEvents(): CapturedText[] {
  return captureFiles().flatMap(([file, capture]) =>
    (capture.history ?? []).map((row) => ({
      file,
      text: row.event_data,
      row: `${row.scenario ?? capture.scenario} ${row.instance_id} #${row.execution_id}.${row.event_id}`,
    })),
  );
}

/** Every stored work-item text of the captured Rust deployment (PostgreSQL and SQLite). */
export function capturedWorkItems(): CapturedText[] {
  return captureFiles().flatMap(([file, capture]) =>
    (capture.workItems ?? []).map((row) => ({
      file,
      text: row.work_item,
      row: `${row.scenario ?? capture.scenario} ${row.queue} seq ${row.seq}`,
    })),
  );
}
