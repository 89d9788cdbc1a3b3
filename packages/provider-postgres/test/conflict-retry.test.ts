import { ProviderError } from '@duro/core';
import { describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const worker = { type: 'DefaultOnly' } as const;

function activity(id: number) {
  return {
    type: 'ActivityExecute',
    instance: 'conflicts',
    executionId: 1,
    id,
    name: 'A',
    input: '{}',
  } as const;
}

/**
 * Makes the first `failures` inserts into the worker queue fail with `sqlState`, as a real
 * deadlock or serialization failure would, and returns how many inserts were attempted (a
 * sequence, which a rolled-back transaction does not reset).
 */
async function injectConflicts(
  provider: PostgresProvider,
  sqlState: string,
  failures: number,
): Promise<() => Promise<number>> {
  const s = `"${provider.schema}"`;
  await database.query(`CREATE SEQUENCE ${s}.injected_attempts`);
  await database.query(
    `CREATE FUNCTION ${s}.inject_conflict() RETURNS trigger LANGUAGE plpgsql AS $fn$
     BEGIN
       IF nextval('${s}.injected_attempts') <= ${failures} THEN
         RAISE EXCEPTION 'injected conflict' USING ERRCODE = '${sqlState}';
       END IF;
       RETURN NEW;
     END $fn$`,
  );
  await database.query(
    `CREATE TRIGGER inject_conflict BEFORE INSERT ON ${s}.worker_queue ` +
      `FOR EACH ROW EXECUTE FUNCTION ${s}.inject_conflict()`,
  );
  return async () => {
    const rows = await database.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value, is_called FROM ${s}.injected_attempts`,
    );
    return rows[0]?.is_called === true ? Number(rows[0].last_value) : 0;
  };
}

describe('conflicts retried inside the provider', () => {
  it.each([
    ['deadlock', '40P01'],
    ['serialization failure', '40001'],
  ])('a %s is retried and the call succeeds when a retry does', async (_, sqlState) => {
    const provider = await database.newProvider({}, 'conflict_ok');
    const attempts = await injectConflicts(provider, sqlState, 2);
    await provider.enqueueForWorker(activity(1));
    expect(await attempts()).toBe(3);
    expect((await provider.fetchWorkItem(30_000, 0, null, worker))?.item).toMatchObject({ id: 1 });
  });

  it.each([
    ['deadlocks', '40P01', /Deadlock detected/],
    ['serialization failures', '40001', /Serialization failure/],
  ])('retries of %s are bounded, then the error is retryable', async (_, sqlState, text) => {
    const provider = await database.newProvider({}, 'conflict_bounded');
    const attempts = await injectConflicts(provider, sqlState, 1_000);
    const error: unknown = await provider.enqueueForWorker(activity(1)).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error) && error.retryable).toBe(true);
    expect(String(error)).toMatch(text);
    expect(String(error)).toContain('(instance conflicts)');
    expect(await attempts()).toBe(4);
  });

  it('a cached plan invalidated by a redefined procedure is retried on a new connection', async () => {
    const provider = await database.newProvider({ poolSize: 1 }, 'cached_plan');
    await provider.enqueueForWorker(activity(1));
    expect(await provider.fetchWorkItem(30_000, 0, null, worker)).not.toBeNull();

    // A migration replaces the procedure with one of another result type while the pooled
    // connection still holds the prepared fetch: its next execution fails with 0A000.
    const s = `"${provider.schema}"`;
    const args = 'bigint, bigint, text, bigint, text[], text';
    await database.query(
      `ALTER FUNCTION ${s}.fetch_work_item(${args}) RENAME TO fetch_work_item_before`,
    );
    await database.query(
      `CREATE FUNCTION ${s}.fetch_work_item(a bigint, b bigint, c text, d bigint, e text[], f text)
       RETURNS TABLE(out_work_item text, out_lock_token text, out_attempt_count integer, out_note text)
       LANGUAGE sql AS $fn$ SELECT w.*, 'redefined' FROM ${s}.fetch_work_item_before(a, b, c, d, e, f) w $fn$`,
    );
    await provider.enqueueForWorker(activity(2));
    expect((await provider.fetchWorkItem(30_000, 0, null, worker))?.item).toMatchObject({ id: 2 });
  });
});
