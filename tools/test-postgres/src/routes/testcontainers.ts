import type { PostgresServer } from '../postgres-server.js';

/** The image the Testcontainers route starts. */
export const TESTCONTAINERS_IMAGE = 'postgres:17-alpine';

/** Starts a PostgreSQL container; only called after a Docker engine answered. */
export async function startTestcontainersPostgres(): Promise<PostgresServer> {
  // Loaded on demand: the Docker client is heavy and most machines here never need it.
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer(TESTCONTAINERS_IMAGE)
    .withCommand([
      'postgres',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'max_connections=400',
      '-c',
      'track_activity_query_size=16384',
    ])
    .start();
  return {
    url: container.getConnectionUri(),
    route: 'testcontainers',
    async stop() {
      await container.stop();
    },
  };
}
