import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { MigrationReport } from '@duro/provider-postgres';
import { describe, expect, it } from 'vitest';
import { DURO_MIGRATIONS, DUROXIDE_MIGRATIONS } from '../src/migrations/migrations.generated.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const run = promisify(execFile);
const scratch = useScratchSchemas();
const child = fileURLToPath(new URL('./support/migrate-child.mjs', import.meta.url));
const PROCESSES = 8;

async function migrateInProcesses(schema: string): Promise<MigrationReport[]> {
  const outputs = await Promise.all(
    Array.from({ length: PROCESSES }, () =>
      run(process.execPath, [child, scratch.databaseUrl, schema], { timeout: 60_000 }),
    ),
  );
  return outputs.map(({ stdout }) => JSON.parse(stdout) as MigrationReport);
}

async function ledger(schema: string, table: string): Promise<number[]> {
  const rows = await scratch.pool.query<{ version: string }>(
    `SELECT version FROM "${schema}".${table} ORDER BY version`,
  );
  return rows.rows.map((r) => Number(r.version));
}

describe('concurrent migrations', () => {
  it('eight processes migrating one fresh schema at once all succeed and apply each file once', async () => {
    const schema = scratch.fresh('race');
    const reports = await migrateInProcesses(schema);

    for (const report of reports) {
      expect(report).toMatchObject({
        schema,
        duroxideVersion: 26,
        duroVersion: DURO_MIGRATIONS.at(-1)?.version,
      });
    }
    const applied = reports.flatMap((r) => r.applied.map((a) => `${a.track}:${a.version}`));
    expect(applied).toHaveLength(new Set(applied).size);
    expect(applied).toHaveLength(DUROXIDE_MIGRATIONS.length + DURO_MIGRATIONS.length);
    expect(await ledger(schema, '_duroxide_migrations')).toEqual([
      ...Array.from({ length: 21 }, (_, i) => i + 1),
      23,
      25,
      26,
    ]);
    expect(await ledger(schema, '_duro_migrations')).toEqual(
      DURO_MIGRATIONS.map((file) => file.version),
    );

    const again = await migrateInProcesses(schema);
    expect(again.every((r) => r.applied.length === 0 && r.duroxideVersion === 26)).toBe(true);
  });
});
