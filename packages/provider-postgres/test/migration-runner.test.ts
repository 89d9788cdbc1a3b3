import { InvalidSchemaNameError, MigrationError, runMigrations } from '@duro/provider-postgres';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();

async function versions(schema: string, table = '_duroxide_migrations'): Promise<number[]> {
  const rows = await scratch.pool.query<{ version: string }>(
    `SELECT version FROM "${schema}".${table} ORDER BY version`,
  );
  return rows.rows.map((r) => Number(r.version));
}

async function schemaCount(): Promise<number> {
  const rows = await scratch.pool.query<{ n: string }>('SELECT count(*) AS n FROM pg_namespace');
  return Number(rows.rows[0]?.n);
}

async function rejection(promise: Promise<unknown>): Promise<MigrationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!MigrationError.isInstance(error))
    throw new Error(`expected a MigrationError, got ${String(error)}`);
  return error;
}

describe('migration runner', () => {
  it('refuses a schema that records a newer version, naming the highest applied and the highest known', async () => {
    const schema = scratch.fresh('ahead');
    await runMigrations(scratch.pool, { schema });
    await scratch.pool.query(
      `INSERT INTO "${schema}"._duroxide_migrations (version, name) VALUES (27, '0027_from_the_future.sql')`,
    );

    const error = await rejection(runMigrations(scratch.pool, { schema }));
    expect(error.code).toBe('unknown-version');
    expect(error.message).toContain('highest applied 27');
    expect(error.message).toContain('highest known 26');
  });

  it('rejects an unsafe schema name before any SQL runs', async () => {
    const before = await schemaCount();
    const sent: string[] = [];
    const recorder = {
      query: (text: string) => {
        sent.push(text);
        return Promise.reject(new Error('no SQL may be sent'));
      },
    } as unknown as pg.ClientBase;

    await expect(runMigrations(recorder, { schema: 'a; drop table x' })).rejects.toThrow(
      InvalidSchemaNameError,
    );
    await expect(runMigrations(scratch.pool, { schema: 'a; drop table x' })).rejects.toThrow(
      /invalid schema name "a; drop table x"/,
    );
    expect(sent).toEqual([]);
    expect(await schemaCount()).toBe(before);
  });

  it('stops at the target version and continues from there on the next run', async () => {
    const schema = scratch.fresh('target');
    const first = await runMigrations(scratch.pool, { schema, targetVersion: 23 });
    expect(first.duroxideVersion).toBe(23);
    expect(await versions(schema)).toEqual([...Array.from({ length: 21 }, (_, i) => i + 1), 23]);

    const second = await runMigrations(scratch.pool, { schema });
    expect(second.applied.map((a) => a.version)).toEqual([25, 26]);
  });

  it('a schema already past the target version is left as it is', async () => {
    const schema = scratch.fresh('past');
    await runMigrations(scratch.pool, { schema });
    const report = await runMigrations(scratch.pool, { schema, targetVersion: 23 });
    expect(report).toMatchObject({ applied: [], duroxideVersion: 26 });
  });

  it('refuses a target version duroxide-pg does not have, and creates nothing', async () => {
    const schema = scratch.fresh('badtarget');
    const error = await rejection(runMigrations(scratch.pool, { schema, targetVersion: 22 }));
    expect(error.code).toBe('invalid-target');
    const found = await scratch.pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
      schema,
    ]);
    expect(found.rowCount).toBe(0);
  });

  it('refuses a ledger that is not an ordered prefix of the known versions', async () => {
    const schema = scratch.fresh('gap');
    await runMigrations(scratch.pool, { schema, targetVersion: 23 });
    await scratch.pool.query(`DELETE FROM "${schema}"._duroxide_migrations WHERE version = 5`);

    const error = await rejection(runMigrations(scratch.pool, { schema }));
    expect(error.code).toBe('inconsistent-ledger');
    expect(await versions(schema)).not.toContain(25);
  });

  it('refuses duroxide tables that the ledger does not explain or that are missing', async () => {
    const early = scratch.fresh('unexplained');
    await runMigrations(scratch.pool, { schema: early, targetVersion: 13 });
    await scratch.pool.query(`CREATE TABLE "${early}".sessions (session_id TEXT)`);
    expect((await rejection(runMigrations(scratch.pool, { schema: early }))).code).toBe(
      'corrupt-schema',
    );

    const damaged = scratch.fresh('missing');
    await runMigrations(scratch.pool, { schema: damaged });
    await scratch.pool.query(`DROP TABLE "${damaged}".kv_delta`);
    const error = await rejection(runMigrations(scratch.pool, { schema: damaged }));
    expect(error.message).toContain('missing tables kv_delta');
  });

  it('refuses duroxide tables without a ledger', async () => {
    const schema = scratch.fresh('noledger');
    await scratch.pool.query(`CREATE SCHEMA "${schema}"`);
    await scratch.pool.query(`CREATE TABLE "${schema}".instances (instance_id TEXT)`);
    expect((await rejection(runMigrations(scratch.pool, { schema }))).code).toBe('corrupt-schema');
    const ledger = await scratch.pool.query('SELECT to_regclass($1) AS t', [
      `"${schema}"._duroxide_migrations`,
    ]);
    expect(ledger.rows[0]).toEqual({ t: null });
  });

  it('a failing file is rolled back and named, and the files before it stay applied', async () => {
    const schema = scratch.fresh('fails');
    await runMigrations(scratch.pool, { schema, targetVersion: 25 });
    // Two instances under one token make 0026's unique index on lock_token impossible.
    await scratch.pool.query(
      `INSERT INTO "${schema}".instance_locks VALUES ('a', 'lock_same', 0, 0), ('b', 'lock_same', 0, 0)`,
    );

    const error = await rejection(runMigrations(scratch.pool, { schema }));
    expect(error.code).toBe('statement-failed');
    expect(error.message).toContain('0026_serialize_orchestration_lock_mutations.sql failed');
    expect(error.message).toContain('is duplicated');
    expect((await versions(schema)).at(-1)).toBe(25);
  });

  it('reports each file as it is applied', async () => {
    const events: string[] = [];
    await runMigrations(scratch.pool, {
      schema: scratch.fresh('progress'),
      targetVersion: 3,
      onProgress: (e) => events.push(`${e.phase} ${e.track} ${e.version}`),
    });
    expect(events).toEqual([
      'applying duroxide 1',
      'applied duroxide 1',
      'applying duroxide 2',
      'applied duroxide 2',
      'applying duroxide 3',
      'applied duroxide 3',
      'applying duro 1',
      'applied duro 1',
      'applying duro 2',
      'applied duro 2',
      'applying duro 3',
      'applied duro 3',
      'applying duro 4',
      'applied duro 4',
      'applying duro 5',
      'applied duro 5',
      'applying duro 6',
      'applied duro 6',
      'applying duro 7',
      'applied duro 7',
      'applying duro 8',
      'applied duro 8',
      'applying duro 9',
      'applied duro 9',
      'applying duro 10',
      'applied duro 10',
      'applying duro 11',
      'applied duro 11',
      'applying duro 12',
      'applied duro 12',
      'applying duro 13',
      'applied duro 13',
      'applying duro 14',
      'applied duro 14',
      'applying duro 15',
      'applied duro 15',
      'applying duro 16',
      'applied duro 16',
      'applying duro 17',
      'applied duro 17',
    ]);
  });
});
