import { DUROXIDE_MIGRATION_VERSIONS } from '@duro/provider-postgres';
import { describe, expect, it } from 'vitest';
import { DURO_MIGRATIONS } from '../../src/migrations/migrations.generated.js';
import { runDuro } from '../support/duro-cli.js';
import { useTestDatabase } from '../support/test-database.js';

const database = useTestDatabase();

async function ledger(schema: string): Promise<number[]> {
  const rows = await database.query<{ version: string }>(
    `SELECT version FROM "${schema}"._duroxide_migrations ORDER BY version`,
  );
  return rows.map((row) => Number(row.version));
}

describe('duro migrate', () => {
  it('migrates a new schema with one progress line per file, and a second run has nothing to do', async () => {
    const schema = database.newSchemaName('cli_migrate');
    const env = { DATABASE_URL: database.url };
    const first = await runDuro(['migrate', '--schema', schema], env);
    expect(first.stderr).toContain('applying duroxide 0001_initial_schema.sql ... done (');
    expect(first.stderr).toContain('applying duro 0001_wakeup_notifications.sql ... done (');
    const latest = Math.max(...DUROXIDE_MIGRATION_VERSIONS);
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain(
      `at duroxide migration ${latest}, duro extensions ${DURO_MIGRATIONS.at(-1)?.version}`,
    );
    expect(await ledger(schema)).toEqual([...DUROXIDE_MIGRATION_VERSIONS]);

    const again = await runDuro(['migrate', '--schema', schema, '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: [], duroxideVersion: latest });
    await database.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('--dry-run and --print-sql show what is missing and change nothing', async () => {
    const schema = database.newSchemaName('cli_dry');
    const url = ['--database-url', database.url, '--schema', schema];
    expect((await runDuro(['migrate', ...url, '--target', '5'])).code).toBe(0);

    const dry = await runDuro(['migrate', ...url, '--dry-run', '--target', '9']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would apply 4 migration(s) to schema '${schema}':`);
    expect(dry.stdout).toContain('duroxide 0006_use_rust_timestamps');
    expect(dry.stdout).toContain('duroxide 0009_add_activity_cancellation_support');
    expect(dry.stdout).not.toContain('0010_');

    const sql = await runDuro([
      'migrate',
      ...url,
      '--print-sql',
      '--target',
      '9',
      '--no-extensions',
    ]);
    expect(sql.code).toBe(0);
    expect(sql.stdout).toContain('-- duroxide 0006_use_rust_timestamps');
    expect(sql.stdout).toContain('-- duroxide 0009_add_activity_cancellation_support');
    expect(sql.stdout).not.toContain('0005_add_visible_at_to_worker_queue');
    expect(await ledger(schema)).toEqual([1, 2, 3, 4, 5]);
    await database.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('--target stops at an older version, and an unknown target is a usage error', async () => {
    const schema = database.newSchemaName('cli_target');
    const url = ['--database-url', database.url, '--schema', schema];
    const run = await runDuro(['migrate', ...url, '--target', '21', '--no-extensions']);
    expect(run.code).toBe(0);
    expect(await ledger(schema)).toEqual(DUROXIDE_MIGRATION_VERSIONS.filter((v) => v <= 21));

    const unknown = await runDuro(['migrate', ...url, '--target', '22']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^duro migrate: .*22/);
    await database.query(`DROP SCHEMA "${schema}" CASCADE`);
  });
});
