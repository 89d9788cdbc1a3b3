import type { EmbeddedMigration } from './embedded-migration.js';
import { MigrationError } from './migration-error.js';
import type { SchemaNames } from './schema-sql.js';

/**
 * The target version of a run: the requested one when it names a known migration, else the
 * latest known version.
 * @throws {MigrationError} `invalid-target` for a version the track does not have (such as 22).
 */
export function resolveTargetVersion(
  names: SchemaNames,
  known: readonly EmbeddedMigration[],
  requested: number | undefined,
): number {
  const latest = known.at(-1)?.version ?? 0;
  if (requested === undefined) return latest;
  if (!known.some((m) => m.version === requested)) {
    throw new MigrationError(
      'invalid-target',
      names.given,
      `target version ${requested} is not a duroxide migration version; known versions: ` +
        known.map((m) => m.version).join(', '),
    );
  }
  return requested;
}
