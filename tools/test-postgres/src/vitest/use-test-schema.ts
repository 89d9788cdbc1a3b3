import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { createSchema, dropSchema, testSchemaName, urlWithSearchPath } from '../test-schema.js';
import './provided-context.js';

/** The schema a test file owns; its fields are readable from `beforeAll` on. */
export interface TestSchema {
  /** URL of the run's database. */
  readonly databaseUrl: string;
  /** The schema's name, unique to this file and this run. */
  readonly name: string;
  /** A URL whose sessions have this schema first on their search path. */
  readonly url: string;
}

/**
 * Gives the calling test file a fresh schema in the run's database: created before its first test,
 * dropped after its last one when every test passed, and kept (and reported) when one failed, so
 * the failure can be inspected.
 */
export function useTestSchema(): TestSchema {
  let name: string | undefined;
  let failed = false;
  const databaseUrl = inject('duroDatabaseUrl');
  const need = (): string => {
    if (name === undefined)
      throw new Error('useTestSchema(): the schema exists only from beforeAll on');
    return name;
  };

  // vitest requires a destructuring pattern for the (unused) context argument.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(async ({}, suite) => {
    name = testSchemaName(suite.file.filepath);
    await createSchema(databaseUrl, name);
  });
  afterEach((context) => {
    if (context.task.result?.state === 'fail') failed = true;
  });
  afterAll(async () => {
    if (name === undefined) return;
    if (failed) {
      console.warn(`test-postgres: kept schema ${name} of a failed test file for inspection`);
      return;
    }
    await dropSchema(databaseUrl, name);
  });

  return {
    databaseUrl,
    get name() {
      return need();
    },
    get url() {
      return urlWithSearchPath(databaseUrl, need());
    },
  };
}
