import pg from 'pg';
import { AccessTokenError } from '../database/access-token-error.js';
import { sessionConfig, type ConnectionTarget } from './connection-target.js';
import { sqlState, toProviderError } from '../database/errors.js';
import { readLedger } from '../migrations/migration-ledger.js';
import { MigrationError } from '../migrations/migration-error.js';
import { runMigrations } from '../migrations/migration-runner.js';
import { claimCommitClause } from '../database/claim-commit.js';
import { schemaNames, type SchemaNames } from '../migrations/schema-sql.js';
import type { ResolvedProviderOptions } from '../postgres-provider-options.js';
import { ProviderDatabase, type ConnectionSource } from '../database/provider-database.js';

/** What a provider is built from once connected. @internal */
export interface ProviderConnection {
  readonly database: ProviderDatabase;
  /** Settings of the provider's sessions, for the listening connection. */
  readonly sessionConfig: pg.ClientConfig;
  /** The schema as PostgreSQL names it (lower case). */
  readonly schema: string;
  /** Whether the schema has `duro_fetch_orchestration_item` with the claim of its version. */
  readonly historyTails: boolean;
  /** Whether the schema also has `duro_fetch_orchestration_items` and `duro_ack_orchestration_items`. */
  readonly turnBatches: boolean;
  /** Whether a turn batch's commit can write its activities claimed (duro migration 10). */
  readonly activityClaims: boolean;
  /** Whether an activity acknowledgement can claim the turns it wakes (duro migration 16). */
  readonly ackClaimsTurns: boolean;
}

/**
 * The duroxide-track version whose `fetch_orchestration_item` claim duro migration 2's
 * `duro_fetch_orchestration_item` repeats. On a schema at another version the history tail
 * fetch would claim differently from the schema's own procedures, so it is not used there.
 */
const HISTORY_TAIL_CLAIM_VERSION = 26;
/** The duro-track migration that creates `duro_fetch_orchestration_item`. */
const HISTORY_TAIL_DURO_VERSION = 2;
/** The duro-track migration that creates the turn batch procedures, which claim through it. */
const TURN_BATCH_DURO_VERSION = 3;
/** The duro-track migration that lets a turn batch's commit write its activities claimed. */
const ACTIVITY_CLAIM_DURO_VERSION = 10;
/** The duro-track migration that lets an activity acknowledgement claim the turns it wakes. */
const ACK_CLAIMS_TURNS_DURO_VERSION = 16;

interface TrackVersions {
  readonly duroxideVersion: number;
  readonly duroVersion: number;
}

async function readTrackVersions(pool: pg.Pool, names: SchemaNames): Promise<TrackVersions> {
  const client = await pool.connect();
  try {
    const duroxide = await readLedger(client, names, 'duroxide');
    const duro = await readLedger(client, names, 'duro');
    return { duroxideVersion: duroxide?.at(-1) ?? 0, duroVersion: duro?.at(-1) ?? 0 };
  } finally {
    client.release();
  }
}

/** SQLSTATEs of a refused login. */
const LOGIN_REFUSED = new Set(['28000', '28P01']);

/**
 * The pool as the provider's calls take connections from it. With Entra ID a refused login is
 * taken for a token rotation in progress, as duroxide-pg does (its SQLSTATEs 28000 and 28P01
 * are retryable there only), so the call fails with a retryable error and the next one logs in
 * with the refreshed token.
 */
function providerConnections(pool: pg.Pool, target: ConnectionTarget): ConnectionSource {
  if (target.kind === 'url') return pool;
  return {
    connect: () =>
      pool.connect().catch((error: unknown) => {
        const state = sqlState(error);
        if (state === undefined || !LOGIN_REFUSED.has(state)) throw error;
        throw new AccessTokenError(
          'rejected',
          `PostgreSQL refused the Entra ID login of ${target.user} (it may be rotating its token): ${(error as Error).message}`,
          { cause: error },
        );
      }),
    end: () => pool.end(),
  };
}

/**
 * Opens the pool for `schema` on `target` and, unless told not to, migrates the schema. The
 * schema name is checked before anything is sent.
 * @throws {InvalidSchemaNameError} for a schema name that is not a safe identifier.
 * @throws {RangeError} or {Error} for TLS settings that cannot be used.
 * @throws {MigrationError} when migrating fails; the pool is closed again.
 * @throws {ProviderError} when the database cannot be reached (retryable) or refuses the
 * session (permanent); the pool is closed again.
 * @internal
 */
export async function connectProvider(
  target: ConnectionTarget,
  schema: string,
  options: ResolvedProviderOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProviderConnection> {
  const names = schemaNames(schema);
  const config = await sessionConfig(target, options, env);
  // Idle connections do not keep the process alive: once its runtime has shut down, a program
  // that never closes the provider still ends, as a duroxide-node program does.
  const pool = new pg.Pool({ ...config, max: options.poolSize, allowExitOnIdle: true });
  // pg-pool listens for errors of idle connections only; a connection lost while checked out
  // would otherwise raise an unhandled 'error' event. Its query fails and it is discarded.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  let versions: TrackVersions;
  try {
    if (options.migrate) {
      const targetVersion = options.migrateToVersion;
      versions = await runMigrations(
        pool,
        targetVersion === undefined ? { schema } : { schema, targetVersion },
      );
    } else {
      versions = await readTrackVersions(pool, names);
    }
  } catch (error) {
    await pool.end();
    throw MigrationError.isInstance(error) ? error : toProviderError('connect', error);
  }
  return {
    database: new ProviderDatabase(
      providerConnections(pool, target),
      names,
      options.nowMs,
      claimCommitClause(options.nonDurableClaims),
    ),
    sessionConfig: config,
    schema: names.folded,
    historyTails:
      versions.duroxideVersion === HISTORY_TAIL_CLAIM_VERSION &&
      versions.duroVersion >= HISTORY_TAIL_DURO_VERSION,
    turnBatches:
      versions.duroxideVersion === HISTORY_TAIL_CLAIM_VERSION &&
      versions.duroVersion >= TURN_BATCH_DURO_VERSION,
    activityClaims:
      versions.duroxideVersion === HISTORY_TAIL_CLAIM_VERSION &&
      versions.duroVersion >= ACTIVITY_CLAIM_DURO_VERSION,
    ackClaimsTurns:
      versions.duroxideVersion === HISTORY_TAIL_CLAIM_VERSION &&
      versions.duroVersion >= ACK_CLAIMS_TURNS_DURO_VERSION,
  };
}
