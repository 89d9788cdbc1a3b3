import { probeDockerEngine } from './docker-engine.js';
import { PostgresUnavailableError } from './postgres-unavailable-error.js';
import type { PostgresServer, RouteAttempt } from './postgres-server.js';
import { startEmbeddedPostgres, type EmbeddedPostgresOptions } from './routes/embedded.js';
import { startTestcontainersPostgres } from './routes/testcontainers.js';
import { readServerVersion } from './server-probe.js';

/** Options for {@link acquirePostgres}. */
export interface AcquirePostgresOptions {
  /** The environment to read `DATABASE_URL` and `DOCKER_HOST` from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Options for the embedded route. */
  readonly embedded?: EmbeddedPostgresOptions;
}

/** A server, and the record of every route considered on the way to it. */
export interface AcquiredPostgres extends PostgresServer {
  readonly serverVersion: string;
  readonly attempts: readonly RouteAttempt[];
}

function describe(error: unknown): string {
  if (error instanceof AggregateError) {
    return error.errors.map(describe).join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Finds a PostgreSQL server: `DATABASE_URL` when set (and then nothing else, since the developer
 * asked for that server); otherwise a Testcontainers PostgreSQL when a Docker engine answers;
 * otherwise an embedded PostgreSQL.
 *
 * @throws {PostgresUnavailableError} naming every route tried and why it failed.
 */
export async function acquirePostgres(
  options: AcquirePostgresOptions = {},
): Promise<AcquiredPostgres> {
  const env = options.env ?? process.env;
  const attempts: RouteAttempt[] = [];

  const configuredUrl = env.DATABASE_URL?.trim();
  if (configuredUrl) {
    try {
      const serverVersion = await readServerVersion(configuredUrl);
      attempts.push({ route: 'DATABASE_URL', outcome: 'used', detail: redact(configuredUrl) });
      return {
        url: configuredUrl,
        route: 'DATABASE_URL',
        serverVersion,
        attempts,
        stop: async () => {},
      };
    } catch (error) {
      attempts.push({
        route: 'DATABASE_URL',
        outcome: 'failed',
        detail: `${redact(configuredUrl)} did not answer: ${describe(error)}`,
      });
      throw new PostgresUnavailableError(attempts);
    }
  }
  attempts.push({ route: 'DATABASE_URL', outcome: 'skipped', detail: 'DATABASE_URL is not set' });

  const docker = await probeDockerEngine(env);
  if (docker.answered) {
    try {
      const server = await startTestcontainersPostgres();
      const serverVersion = await readServerVersion(server.url);
      attempts.push({ route: 'testcontainers', outcome: 'used', detail: docker.endpoint });
      return { ...server, serverVersion, attempts };
    } catch (error) {
      attempts.push({
        route: 'testcontainers',
        outcome: 'failed',
        detail: `engine at ${docker.endpoint} answered, but starting a container failed: ${describe(error)}`,
      });
    }
  } else {
    attempts.push({ route: 'testcontainers', outcome: 'skipped', detail: docker.detail });
  }

  try {
    const server = await startEmbeddedPostgres(options.embedded);
    try {
      const serverVersion = await readServerVersion(server.url);
      attempts.push({ route: 'embedded-postgres', outcome: 'used', detail: redact(server.url) });
      return { ...server, serverVersion, attempts };
    } catch (error) {
      await server.stop();
      throw error;
    }
  } catch (error) {
    attempts.push({ route: 'embedded-postgres', outcome: 'failed', detail: describe(error) });
  }
  throw new PostgresUnavailableError(attempts);
}

/** Hides the password of a connection URL. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable URL>';
  }
}
