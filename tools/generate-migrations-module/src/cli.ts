#!/usr/bin/env node
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from './migration-files.js';
import { renderMigrationsModule } from './render-module.js';

const USAGE = `usage: duro-generate-migrations-module [--check]

  (no flag)  write packages/provider-postgres/src/migrations/migrations.generated.ts from
             migrations/*.sql and migrations/duro/*.sql; under CI=true a stale module fails
             instead of being rewritten, so CI never passes on a stale commit
  --check    exit 1 when the module differs from what the SQL files give`;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const migrationsDir = join(repoRoot, 'migrations');
const outputPath = join(
  repoRoot,
  'packages/provider-postgres/src/migrations/migrations.generated.ts',
);

async function main(args: readonly string[]): Promise<number> {
  const check = args.includes('--check');
  if (args.some((a) => a !== '--check')) {
    console.error(USAGE);
    return 2;
  }
  const expected = await renderMigrationsModule(
    await readMigrationFiles(migrationsDir),
    outputPath,
  );
  const current = await readFile(outputPath, 'utf8').catch(() => '');
  const shown = relative(repoRoot, outputPath);
  if (current === expected) return 0;
  if (check || process.env.CI === 'true') {
    console.error(
      `${shown} is stale: run \`pnpm --filter @duro/provider-postgres generate\` and commit it`,
    );
    return 1;
  }
  // Write then rename, so a concurrent reader sees the old module or the new one, never half.
  await writeFile(`${outputPath}.tmp`, expected);
  await rename(`${outputPath}.tmp`, outputPath);
  console.log(`updated ${shown}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
