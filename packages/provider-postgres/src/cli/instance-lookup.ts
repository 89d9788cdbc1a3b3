import type { ParsedInstanceInfo } from '@duro/core';
import { CliError } from './cli-error.js';
import type { CliStore } from './store-connection.js';

/**
 * The instance `instanceId` of `store`.
 * @throws {CliError} (not found) when the schema has no such instance.
 */
export async function requireInstance(
  store: CliStore,
  instanceId: string,
): Promise<ParsedInstanceInfo> {
  const known = await store.pool.query(
    `SELECT 1 FROM ${store.schemaSql}.instances WHERE instance_id = $1`,
    [instanceId],
  );
  if (known.rowCount === 0) throw CliError.notFound(instanceId);
  return store.management.getInstanceInfo(instanceId);
}

/**
 * `text` read as JSON, for the payload arguments of `raise` and `enqueue`.
 * @throws {CliError} (usage) when it is not JSON, with a hint to quote strings.
 */
export function jsonArgument(text: string | undefined, what: string): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw CliError.usage(
      `${what} must be JSON (a string needs its quotes: '"text"'), got ${JSON.stringify(text)}`,
    );
  }
}
