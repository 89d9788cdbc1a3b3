import {
  InvalidSchemaNameError,
  MigrationError,
  renderMigrationSql,
  runMigrations,
} from '@duro/provider-postgres';
import { describe, expect, it } from 'vitest';
import { readSchemaFacts, type SchemaFacts } from './support/schema-facts.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();

async function facts(schema: string): Promise<SchemaFacts> {
  const client = await scratch.pool.connect();
  try {
    return await readSchemaFacts(client, schema);
  } finally {
    client.release();
  }
}

/** Runs a script as psql does with ON_ERROR_STOP: in one session, stopping at the first error. */
async function runScript(script: string): Promise<void> {
  const client = await scratch.pool.connect();
  try {
    await client.query(script);
  } finally {
    client.release();
  }
}

describe('rendered migration SQL', () => {
  it('run as a script, it gives the schema the runner gives', async () => {
    const byRunner = scratch.fresh('runner');
    const byScript = scratch.fresh('script');
    await runMigrations(scratch.pool, { schema: byRunner });
    await runScript(renderMigrationSql(byScript, 1, 26, { extensions: true }));

    expect(await facts(byScript)).toEqual(await facts(byRunner));
    const duro = await scratch.pool.query(
      `SELECT version, name FROM "${byScript}"._duro_migrations`,
    );
    expect(duro.rows).toEqual([
      { version: '1', name: '0001_wakeup_notifications.sql' },
      { version: '2', name: '0002_fetch_orchestration_history_tail.sql' },
      { version: '3', name: '0003_orchestration_turn_batches.sql' },
      { version: '4', name: '0004_claim_from_candidate_window.sql' },
      { version: '5', name: '0005_messages_wait_for_instance_release.sql' },
      { version: '6', name: '0006_claim_tries_duroxide_pg_lock_key.sql' },
      { version: '7', name: '0007_worker_queue_ready_and_lease_indexes.sql' },
      { version: '8', name: '0008_ack_turns_together.sql' },
      { version: '9', name: '0009_claim_takes_undelayed_messages.sql' },
      { version: '10', name: '0010_turn_commit_claims_its_activities.sql' },
      { version: '11', name: '0011_instance_listing_indexes.sql' },
      { version: '12', name: '0012_claim_waits_for_one_key_lock_holders.sql' },
      { version: '13', name: '0013_notifications_say_when_delayed_messages_come_due.sql' },
      { version: '14', name: '0014_claims_run_fewer_statements.sql' },
      { version: '15', name: '0015_messages_hold_their_instances_until_committed.sql' },
      { version: '16', name: '0016_activity_acks_claim_the_turns_they_wake.sql' },
      { version: '17', name: '0017_turn_commits_skip_steps_with_nothing_to_write.sql' },
    ]);
  });

  it('a range continues a schema the runner left at an older version', async () => {
    const stepped = scratch.fresh('stepped');
    const direct = scratch.fresh('direct');
    await runMigrations(scratch.pool, { schema: stepped, targetVersion: 23, extensions: false });
    await runScript(renderMigrationSql(stepped, 25, 26));
    await runMigrations(scratch.pool, { schema: direct, extensions: false });
    expect(await facts(stepped)).toEqual(await facts(direct));
    // The runner accepts what the script left behind.
    expect((await runMigrations(scratch.pool, { schema: stepped })).applied).toEqual([
      { track: 'duro', version: 1, name: '0001_wakeup_notifications.sql' },
      { track: 'duro', version: 2, name: '0002_fetch_orchestration_history_tail.sql' },
      { track: 'duro', version: 3, name: '0003_orchestration_turn_batches.sql' },
      { track: 'duro', version: 4, name: '0004_claim_from_candidate_window.sql' },
      { track: 'duro', version: 5, name: '0005_messages_wait_for_instance_release.sql' },
      { track: 'duro', version: 6, name: '0006_claim_tries_duroxide_pg_lock_key.sql' },
      { track: 'duro', version: 7, name: '0007_worker_queue_ready_and_lease_indexes.sql' },
      { track: 'duro', version: 8, name: '0008_ack_turns_together.sql' },
      { track: 'duro', version: 9, name: '0009_claim_takes_undelayed_messages.sql' },
      { track: 'duro', version: 10, name: '0010_turn_commit_claims_its_activities.sql' },
      { track: 'duro', version: 11, name: '0011_instance_listing_indexes.sql' },
      { track: 'duro', version: 12, name: '0012_claim_waits_for_one_key_lock_holders.sql' },
      {
        track: 'duro',
        version: 13,
        name: '0013_notifications_say_when_delayed_messages_come_due.sql',
      },
      { track: 'duro', version: 14, name: '0014_claims_run_fewer_statements.sql' },
      {
        track: 'duro',
        version: 15,
        name: '0015_messages_hold_their_instances_until_committed.sql',
      },
      {
        track: 'duro',
        version: 16,
        name: '0016_activity_acks_claim_the_turns_they_wake.sql',
      },
      {
        track: 'duro',
        version: 17,
        name: '0017_turn_commits_skip_steps_with_nothing_to_write.sql',
      },
    ]);
  });

  it('a file already recorded stops the script at its ledger insert', async () => {
    const schema = scratch.fresh('twice');
    await runMigrations(scratch.pool, { schema, extensions: false });
    await expect(runScript(renderMigrationSql(schema, 26, 26))).rejects.toThrow(/duplicate key/);
  });

  it('refuses unsafe schema names and versions duroxide-pg does not have', () => {
    expect(() => renderMigrationSql('x"; drop schema y; --', 1, 26)).toThrow(
      InvalidSchemaNameError,
    );
    expect(() => renderMigrationSql('tenant', 1, 22)).toThrow(MigrationError);
    expect(() => renderMigrationSql('tenant', 25, 23)).toThrow(
      /fromVersion 25 is above toVersion 23/,
    );
  });
});
