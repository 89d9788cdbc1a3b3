import type { RouteAttempt } from './postgres-server.js';

/** Thrown when no route produced a PostgreSQL server; the message lists every route and why. */
export class PostgresUnavailableError extends Error {
  override readonly name = 'PostgresUnavailableError';

  constructor(readonly attempts: readonly RouteAttempt[]) {
    super(
      [
        'No PostgreSQL server is available for the tests. Routes tried, in order:',
        ...attempts.map((a) => `  - ${a.route}: ${a.outcome}: ${a.detail}`),
        'Set DATABASE_URL to a server you run yourself, start a Docker engine, or fix the embedded route above.',
      ].join('\n'),
    );
  }
}
