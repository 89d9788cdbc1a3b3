import { TagFilter } from '@duro/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_COMMIT_WITHOUT_FLUSH_WAIT } from '../src/database/claim-commit.js';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';
import { activityOf, startOrchestration } from './support/turns.js';

const database = useTestDatabase();

describe('the clause of a claim that does not wait for the flush', () => {
  // Pool connections run claims and acknowledgements one after another: a claim's relaxed
  // durability must end with its own statement, or the acknowledgements that follow on the same
  // connection would commit without waiting for the disk either.
  const connection = new pg.Client({ connectionString: database.url });
  beforeAll(async () => {
    await connection.connect();
    // Test servers run with synchronous_commit off; a production session has it on.
    await connection.query('SET synchronous_commit = on');
  });
  afterAll(() => connection.end());

  async function synchronousCommit(sql: string): Promise<string | undefined> {
    const { rows } = await connection.query<{ setting: string }>(sql);
    return rows[0]?.setting;
  }

  it('relaxes its own commit, and the next statement on its connection waits again', async () => {
    const during = await synchronousCommit(
      `SELECT current_setting('synchronous_commit') AS setting FROM (SELECT 1) AS claim ` +
        CLAIM_COMMIT_WITHOUT_FLUSH_WAIT,
    );
    expect(during).toBe('off');
    expect(await synchronousCommit(`SELECT current_setting('synchronous_commit') AS setting`)).toBe(
      'on',
    );
  });
});

beforeAll(async () => {
  const [setting] = await database.query<{ size: string }>(
    `SELECT setting AS size FROM pg_settings WHERE name = 'track_activity_query_size'`,
  );
  expect(
    Number(setting?.size),
    'these tests read whole statements from pg_stat_activity: the server needs track_activity_query_size >= 8192',
  ).toBeGreaterThanOrEqual(8192);
});

/** The statement the provider's only connection ran last, as the server reports it. */
async function lastStatement(applicationName: string): Promise<string> {
  const rows = await database.query<{ query: string }>(
    `SELECT query FROM pg_stat_activity
     WHERE application_name = $1 AND backend_type = 'client backend'`,
    [applicationName],
  );
  expect(rows, 'the provider has one connection').toHaveLength(1);
  return rows[0]?.query ?? '';
}

/** What each claim statement is recognised by: the procedure it calls or the table it claims from. */
const CLAIMS = [
  /fetch_orchestration_item\(/,
  /fetch_orchestration_items\(/,
  /fetch_work_item\(/,
  /worker_queue/,
];

/** Claims work through each kind of fetch, returning the statement text of each claim. */
async function claimStatements(
  provider: PostgresProvider,
  applicationName: string,
): Promise<string[]> {
  const texts: string[] = [];
  await provider.enqueueForOrchestrator(startOrchestration('one'), null);
  await provider.enqueueForOrchestrator(startOrchestration('batch'), null);
  for (const [n, id] of [
    [1, 'single'],
    [2, 'batch'],
  ] as const) {
    await provider.enqueueForWorker(activityOf(`activity-${id}`, n));
  }
  expect(await provider.fetchOrchestrationItem(30_000, 0, null)).not.toBeNull();
  texts.push(await lastStatement(applicationName));
  expect(await provider.fetchOrchestrationItems?.(30_000, 0, null, 5)).toHaveLength(1);
  texts.push(await lastStatement(applicationName));
  expect(await provider.fetchWorkItem(30_000, 0, null, TagFilter.defaultOnly())).not.toBeNull();
  texts.push(await lastStatement(applicationName));
  expect(
    await provider.fetchWorkItems?.(30_000, 0, null, TagFilter.defaultOnly(), 5, 0),
  ).toHaveLength(1);
  texts.push(await lastStatement(applicationName));
  return texts;
}

describe('claims', () => {
  it('commit as durably as everything else by default', async () => {
    const applicationName = 'duro_durable_claims';
    const provider = await database.newProvider({ applicationName, poolSize: 1 }, 'durable');
    const texts = await claimStatements(provider, applicationName);
    texts.forEach((text, i) => expect(text).toMatch(CLAIMS[i] ?? /never/));
    for (const text of texts) expect(text).not.toMatch(/synchronous_commit/);
  });

  it('with nonDurableClaims, commit without waiting for the flush', async () => {
    const applicationName = 'duro_nondurable_claims';
    const provider = await database.newProvider(
      { applicationName, poolSize: 1, nonDurableClaims: true },
      'nondurable',
    );
    const texts = await claimStatements(provider, applicationName);
    texts.forEach((text, i) => expect(text).toMatch(CLAIMS[i] ?? /never/));
    for (const text of texts) expect(text).toContain(CLAIM_COMMIT_WITHOUT_FLUSH_WAIT);
  });
});
