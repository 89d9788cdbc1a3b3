/**
 * Embeds the SQL migrations of `migrations/` into `@duro/provider-postgres` as
 * `src/migrations/migrations.generated.ts`. Run as `duro-generate-migrations-module` (writes the
 * module) or with `--check` (fails when the module is stale).
 */
export { readMigrationFiles, type MigrationFile } from './migration-files.js';
export { renderMigrationsModule } from './render-module.js';
export { DUROXIDE_PG_MIGRATIONS } from './duroxide-pg-versions.js';
