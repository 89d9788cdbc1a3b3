#!/usr/bin/env node
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquirePostgres } from '@duro/test-postgres';
import { generateDiffs } from './generate-diffs.js';

const USAGE = `usage: duro-migration-diff [--check]

  (no flag)  write migrations/NNNN_diff.md for every migration that creates, replaces or drops a
             function, and delete diff files no migration needs
  --check    exit 1 when a diff file is stale, missing or left over

Uses DATABASE_URL when set, else a Docker or embedded PostgreSQL (see @duro/test-postgres).`;

const migrationsDir = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '../../..'),
  'migrations',
);

async function main(args: readonly string[]): Promise<number> {
  const check = args.includes('--check');
  if (args.some((a) => a !== '--check')) {
    console.error(USAGE);
    return 2;
  }
  const server = await acquirePostgres();
  let documents;
  try {
    documents = await generateDiffs(server.url);
  } finally {
    await server.stop();
  }
  const wanted = new Map(documents.map((d) => [d.fileName, d.markdown]));
  const present = (await readdir(migrationsDir)).filter((n) => /^\d{4}_diff\.md$/.test(n));
  const problems: string[] = [];
  for (const [fileName, markdown] of wanted) {
    const current = await readFile(join(migrationsDir, fileName), 'utf8').catch(() => undefined);
    if (current === markdown) continue;
    if (check) problems.push(`${fileName} is ${current === undefined ? 'missing' : 'stale'}`);
    else await writeFile(join(migrationsDir, fileName), markdown);
  }
  for (const fileName of present.filter((n) => !wanted.has(n))) {
    if (check) problems.push(`${fileName} belongs to no migration that changes a function`);
    else await rm(join(migrationsDir, fileName));
  }
  if (problems.length > 0) {
    console.error(
      `migration diffs out of date (PostgreSQL ${server.serverVersion}):\n  ${problems.join('\n  ')}\n` +
        'run `pnpm --filter @duro/migration-diff generate` and commit the result',
    );
    return 1;
  }
  console.log(
    `${wanted.size} migration diffs ${check ? 'up to date' : 'written'} (PostgreSQL ${server.serverVersion})`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
