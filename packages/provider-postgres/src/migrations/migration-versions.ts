import { DUROXIDE_MIGRATIONS } from './migrations.generated.js';

/**
 * The duroxide-track versions this package knows, in order (duroxide-pg's numbers: 1–21, 23,
 * 25, 26). Each is a valid `targetVersion` for `runMigrations` and bound for
 * `renderMigrationSql`.
 */
export const DUROXIDE_MIGRATION_VERSIONS: readonly number[] = DUROXIDE_MIGRATIONS.map(
  (m) => m.version,
);
