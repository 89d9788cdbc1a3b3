import type { TestProject } from 'vitest/node';
import { acquirePostgres } from '../acquire-postgres.js';
import './provided-context.js';

/**
 * Vitest global setup: finds one PostgreSQL server for the whole run and hands its URL to every
 * test file through `inject('duroDatabaseUrl')`. The server stops when the run ends, whether the
 * tests passed, failed or the run was interrupted.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await acquirePostgres();
  project.provide('duroDatabaseUrl', server.url);
  project.provide('duroDatabaseRoute', server.route);
  console.log(`test-postgres: ${server.route}, PostgreSQL ${server.serverVersion}`);
  const stopOnSignal = (): void => {
    void server.stop();
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  return async () => {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    await server.stop();
  };
}
