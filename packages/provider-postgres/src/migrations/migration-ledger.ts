import type pg from 'pg';
import type { EmbeddedMigration, MigrationTrack } from './embedded-migration.js';
import { MigrationError } from './migration-error.js';
import type { SchemaNames } from './schema-sql.js';

/** The ledger table of each track, one per schema. */
export const LEDGER_TABLE: Readonly<Record<MigrationTrack, string>> = {
  duroxide: '_duroxide_migrations',
  duro: '_duro_migrations',
};

/**
 * The tables the duroxide track owns, and the version that creates each; the same list the
 * duroxide-pg 0.1.37+ runner checks (`BASE_TABLES`, `ALL_CORE_TABLES`). Keep in step with it.
 */
const CORE_TABLES: ReadonlyMap<string, number> = new Map([
  ['instances', 1],
  ['executions', 1],
  ['history', 1],
  ['orchestrator_queue', 1],
  ['worker_queue', 1],
  ['instance_locks', 1],
  ['sessions', 14],
  ['kv_store', 18],
  ['kv_delta', 20],
]);

/** A relation's `pg_class.relkind`: `r` table, `p` partitioned table, `v` view, ... */
type RelationKinds = ReadonlyMap<string, string>;

function isTableKind(kind: string): boolean {
  return kind === 'r' || kind === 'p';
}

/**
 * Reads a track's ledger: `undefined` when the table does not exist, else the recorded versions
 * in ascending order.
 * @throws {MigrationError} `corrupt-schema` when the ledger name is taken by something that is
 * not a table (a view, say): it is then neither read nor replaced.
 */
export async function readLedger(
  client: pg.ClientBase,
  names: SchemaNames,
  track: MigrationTrack,
): Promise<number[] | undefined> {
  const table = LEDGER_TABLE[track];
  const kinds = await readRelationKinds(client, names, [table]);
  const kind = kinds.get(table);
  if (kind === undefined) return undefined;
  if (!isTableKind(kind)) {
    throw new MigrationError(
      'corrupt-schema',
      names.given,
      `schema ${names.folded} has a ${table} of relation kind '${kind}', not a table; refusing to read or replace it`,
    );
  }
  const rows = await client.query<{ version: string }>(
    `SELECT version FROM ${names.identifier}.${table} ORDER BY version`,
  );
  return rows.rows.map((row) => Number(row.version));
}

/** Reads which duroxide core tables exist in the schema, with their relation kinds. */
export async function readCoreRelations(
  client: pg.ClientBase,
  names: SchemaNames,
): Promise<RelationKinds> {
  return readRelationKinds(client, names, [...CORE_TABLES.keys()]);
}

async function readRelationKinds(
  client: pg.ClientBase,
  names: SchemaNames,
  relations: readonly string[],
): Promise<RelationKinds> {
  const rows = await client.query<{ relname: string; relkind: string }>(
    `SELECT c.relname::text AS relname, c.relkind::text AS relkind
       FROM pg_catalog.pg_class c
       JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = ANY ($2::text[])`,
    [names.folded, relations],
  );
  return new Map(rows.rows.map((row) => [row.relname, row.relkind]));
}

/**
 * Refuses a ledger that records versions the package does not know: the schema is ahead of the
 * code (or was migrated from a branch with other numbers).
 * @throws {MigrationError} `unknown-version`, naming the highest applied and the highest known.
 */
export function assertKnownVersions(
  names: SchemaNames,
  track: MigrationTrack,
  applied: readonly number[],
  known: readonly EmbeddedMigration[],
): void {
  const knownVersions = new Set(known.map((m) => m.version));
  const unknown = applied.filter((v) => !knownVersions.has(v));
  if (unknown.length === 0) return;
  const highestApplied = Math.max(...applied);
  const highestKnown = known.at(-1)?.version ?? 0;
  throw new MigrationError(
    'unknown-version',
    names.given,
    `schema ${names.folded} records ${track} migration version(s) ${unknown.join(', ')} that this ` +
      `package does not know: highest applied ${highestApplied}, highest known ${highestKnown}. ` +
      'The database is ahead of the code; upgrade @duro/provider-postgres.',
  );
}

/**
 * Requires the recorded versions to be an ordered prefix of the known ones, as the duroxide-pg
 * 0.1.37+ runner does (it then applies the rest in order).
 * @throws {MigrationError} `inconsistent-ledger` otherwise.
 */
export function assertOrderedPrefix(
  names: SchemaNames,
  track: MigrationTrack,
  applied: readonly number[],
  known: readonly EmbeddedMigration[],
): void {
  applied.forEach((version, index) => {
    const expected = known[index]?.version;
    if (version !== expected) {
      throw new MigrationError(
        'inconsistent-ledger',
        names.given,
        `${track} migration ledger of schema ${names.folded} is inconsistent: expected version ` +
          `${expected ?? '(none)'} at position ${index + 1}, found ${version}. Applied versions ` +
          'must be an ordered prefix of the known ones; nothing was changed.',
      );
    }
  });
}

/**
 * Requires the duroxide tables to match the ledger: every table the latest recorded version
 * implies exists and is a table, and no duroxide table exists that the ledger does not explain.
 * Other tables in the schema (duro's ledger, the user's own) are not examined, as in duroxide-pg.
 * @throws {MigrationError} `corrupt-schema` otherwise.
 */
export function assertCoreTables(
  names: SchemaNames,
  applied: readonly number[],
  relations: RelationKinds,
): void {
  const latest = applied.at(-1) ?? 0;
  const expected = [...CORE_TABLES].filter(([, since]) => latest >= since).map(([name]) => name);
  const fail = (what: string): never => {
    throw new MigrationError(
      'corrupt-schema',
      names.given,
      `schema ${names.folded} (duroxide migrations up to ${latest}) ${what}; the schema may be ` +
        'corrupted, refusing to migrate it',
    );
  };
  const notTables = expected.filter((t) => {
    const kind = relations.get(t);
    return kind !== undefined && !isTableKind(kind);
  });
  if (notTables.length > 0) fail(`has ${notTables.join(', ')} as non-table relations`);
  const missing = expected.filter((t) => !relations.has(t));
  if (missing.length > 0) fail(`is missing tables ${missing.join(', ')}`);
  const unexpected = [...relations.keys()].filter((t) => !expected.includes(t)).sort();
  if (unexpected.length > 0)
    fail(`has tables ${unexpected.join(', ')} its ledger does not explain`);
}
