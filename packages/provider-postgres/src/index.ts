/**
 * `@duro/provider-postgres`: a PostgreSQL provider for duro whose schema, stored procedures and
 * migration numbering match the Rust duroxide-pg provider, so TypeScript and Rust workers can
 * share one database.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { runMigrations } from '@duro/provider-postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const report = await runMigrations(pool, { schema: 'duroxide' });
 * console.log(`schema ${report.schema} at duroxide migration ${report.duroxideVersion}`);
 * await pool.end();
 * ```
 *
 * @packageDocumentation
 */
export { InvalidSchemaNameError, validateSchemaName } from './schema-name.js';
export { wakeupChannel, type WakeupQueue } from './wakeup-channel.js';
export {
  runMigrations,
  type MigrationConnection,
  type MigrationProgress,
  type MigrationReport,
  type RunMigrationsOptions,
} from './migrations/migration-runner.js';
export {
  renderMigrationSql,
  type RenderMigrationSqlOptions,
} from './migrations/render-migration-sql.js';
export { MigrationError, type MigrationErrorCode } from './migrations/migration-error.js';
export type { MigrationTrack } from './migrations/embedded-migration.js';
export { DUROXIDE_MIGRATION_VERSIONS } from './migrations/migration-versions.js';
