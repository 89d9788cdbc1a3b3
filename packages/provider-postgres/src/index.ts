/**
 * `@duro/provider-postgres`: a PostgreSQL provider for duro whose schema, stored procedures and
 * migration numbering match the Rust duroxide-pg provider, so TypeScript and Rust workers can
 * share one database.
 *
 * @example
 * ```ts
 * import { PostgresProvider } from '@duro/provider-postgres';
 *
 * // Creates and migrates the schema, then serves the provider contract on it.
 * const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'orders');
 * const depths = await provider.getQueueDepths();
 * console.log(`${depths.orchestratorQueue} orchestrator messages waiting`);
 * await provider.close();
 * ```
 *
 * `runMigrations` migrates a schema on its own, for deployments whose workers connect with
 * `migrate: false`. `PostgresProvider.connectWithEntra` and `connectWithSchemaAndEntra` log in to
 * Azure Database for PostgreSQL with refreshed Entra ID access tokens over `verify-full` TLS; every
 * way of connecting takes TLS settings (`PostgresSslOptions`, libpq's `sslmode` and the like).
 *
 * @module @duro/provider-postgres
 */
export { PostgresProvider } from './postgres-provider.js';
export type { PostgresProviderOptions } from './postgres-provider-options.js';
export {
  DEFAULT_ENTRA_AUDIENCE,
  type EntraAccessToken,
  type EntraCredential,
  type PostgresEntraOptions,
} from './connection/postgres-entra-options.js';
export {
  SSL_MODES,
  type PemInput,
  type PostgresSslOptions,
  type SslMode,
} from './connection/postgres-ssl-options.js';
export { AccessTokenError, type AccessTokenErrorCode } from './database/access-token-error.js';
export { InvalidSchemaNameError, validateSchemaName } from './migrations/schema-name.js';
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
