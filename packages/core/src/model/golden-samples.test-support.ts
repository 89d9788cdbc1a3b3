// Test support for the codec tests: the fixed values tools/wire-fixtures/src/samples.rs builds
// its fixtures from, rebuilt by hand in TypeScript, and readers for the fixture folders. Keep the
// two files in step: a value that differs here fails the golden tests.
import { readdirSync, readFileSync } from 'node:fs';
import type { ErrorDetails } from './error-details.js';

export const INSTANCE = 'order-7';
export const EXECUTION_ID = 2;
export const PARENT_INSTANCE = 'checkout-1';
export const CHILD_INSTANCE = 'checkout-1::sub::4';
export const TIMESTAMP_MS = 1_767_225_600_000;
export const FIRE_AT_MS = 1_767_225_630_000;
export const INPUT = '{"sku":"A-1","qty":2}';
export const RESULT = '{"charged":true}';
/** The duroxide version the fixtures are stamped with: the crate pinned in Cargo.toml. */
export const DUROXIDE_VERSION = '0.1.32';
export const ESCAPES =
  'quote " backslash \\ slash / \b\f\n\r\t \u0000\u0001\u001f del \u007f ' +
  'separators \u2028\u2029 accents é 漢字 emoji 😀 html </script>';
export const CARRIED = [
  ['approvals', '{"by":"ana"}'],
  ['approvals', 'raw text'],
] as const;

export const activityError: ErrorDetails = {
  type: 'Application',
  kind: { type: 'ActivityFailed' },
  message: 'card declined',
  retryable: false,
};

export const poisonedActivityError: ErrorDetails = {
  type: 'Poison',
  attemptCount: 11,
  maxAttempts: 10,
  messageType: {
    type: 'Activity',
    instance: INSTANCE,
    executionId: EXECUTION_ID,
    activityName: 'Charge',
    activityId: 3,
  },
  message: `{"ActivityExecute":{"instance":"${INSTANCE}","execution_id":${EXECUTION_ID},"id":3,"name":"Charge","input":"{}"}}`,
};

const fixtures = new URL('./__fixtures__/', import.meta.url);

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
