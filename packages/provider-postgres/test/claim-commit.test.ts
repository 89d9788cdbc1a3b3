import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLAIM_COMMIT_WITHOUT_FLUSH_WAIT } from '../src/operations/claim-commit.js';
import { useTestDatabase } from './support/test-database.js';

// Pool connections run claims and acknowledgements one after another: a claim's relaxed
// durability must end with its own statement, or the acknowledgements that follow on the same
// connection would commit without waiting for the disk either.
const database = useTestDatabase();
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

it('a claim commits without waiting for the flush, and the next statement on its connection waits again', async () => {
  const during = await synchronousCommit(
    `SELECT current_setting('synchronous_commit') AS setting FROM (SELECT 1) AS claim ` +
      CLAIM_COMMIT_WITHOUT_FLUSH_WAIT,
  );
  expect(during).toBe('off');
  expect(await synchronousCommit(`SELECT current_setting('synchronous_commit') AS setting`)).toBe(
    'on',
  );
});
