import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DUROXIDE_PG_MIGRATIONS } from './duroxide-pg-versions.js';

/** A migration file as read from disk. */
export interface MigrationFile {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

async function readTrack(dir: string): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    const match = FILE_NAME.exec(name);
    if (!match?.[1]) {
      throw new Error(`${join(dir, name)}: a migration file is named NNNN_lower_snake_case.sql`);
    }
    const version = Number(match[1]);
    if (files.some((f) => f.version === version)) {
      throw new Error(`${join(dir, name)}: version ${version} is used by two files`);
    }
    files.push({ version, name, sql: await readFile(join(dir, name), 'utf8') });
  }
  return files;
}

/**
 * Reads both tracks from a migrations folder: `*.sql` (the duroxide track) and `duro/*.sql`.
 * @throws {Error} naming the file when a duroxide-track file has a number or name duroxide-pg does
 * not have, two files share a version, or a duro-track file breaks the naming rule. The duro
 * track must count 1, 2, 3, ... without gaps.
 */
export async function readMigrationFiles(
  migrationsDir: string,
): Promise<{ duroxide: MigrationFile[]; duro: MigrationFile[] }> {
  const duroxide = await readTrack(migrationsDir);
  for (const file of duroxide) {
    const expected = DUROXIDE_PG_MIGRATIONS.get(file.version);
    if (expected !== file.name) {
      throw new Error(
        `${join(migrationsDir, file.name)}: ` +
          (expected
            ? `duroxide-pg names version ${file.version} ${expected}`
            : `duroxide-pg has no version ${file.version}; duro's own migrations go in migrations/duro/`),
      );
    }
  }
  const duro = await readTrack(join(migrationsDir, 'duro'));
  duro.forEach((file, index) => {
    if (file.version !== index + 1) {
      throw new Error(`${join(migrationsDir, 'duro', file.name)}: expected version ${index + 1}`);
    }
  });
  return { duroxide, duro };
}
