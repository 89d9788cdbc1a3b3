/**
 * A real PostgreSQL for tests and local work. `acquirePostgres()` takes `DATABASE_URL` when set,
 * else a Testcontainers PostgreSQL when a Docker engine answers, else an embedded PostgreSQL.
 *
 * @example
 * ```ts
 * const server = await acquirePostgres();
 * try {
 *   console.log(server.url);
 * } finally {
 *   await server.stop();
 * }
 * ```
 */
export {
  acquirePostgres,
  redact,
  type AcquirePostgresOptions,
  type AcquiredPostgres,
} from './acquire-postgres.js';
export { probeDockerEngine, type DockerEngineProbe } from './docker-engine.js';
export { findFreePort } from './free-port.js';
export type { PostgresRoute, PostgresServer, RouteAttempt } from './postgres-server.js';
export { PostgresUnavailableError } from './postgres-unavailable-error.js';
export {
  startEmbeddedPostgres,
  type EmbeddedPostgresOptions,
  type EmbeddedPostgresServer,
  type EmbeddedPostgresTls,
} from './routes/embedded.js';
export { readServerVersion } from './server-probe.js';
export {
  TEST_SCHEMA_PREFIX,
  createSchema,
  dropSchema,
  sweepTestSchemas,
  testSchemaName,
  urlWithSearchPath,
} from './test-schema.js';
