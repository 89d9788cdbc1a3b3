import { readFile } from 'node:fs/promises';
import { runMigrations } from '@duro/provider-postgres';
import { describe, expect, it } from 'vitest';
import { readSchemaFacts, type SchemaFacts } from './support/schema-facts.js';
import { useScratchSchemas } from './support/scratch-schemas.js';

const scratch = useScratchSchemas();

async function fixture(): Promise<
  SchemaFacts & { serverVersion: string; schemaPlaceholder: string }
> {
  return JSON.parse(
    await readFile(new URL('./__fixtures__/schema-facts.json', import.meta.url), 'utf8'),
  ) as never;
}

async function factsAfter(targetVersion?: number, extensions = false): Promise<SchemaFacts> {
  const schema = scratch.fresh('facts');
  await runMigrations(scratch.pool, {
    schema,
    extensions,
    ...(targetVersion === undefined ? {} : { targetVersion }),
  });
  const client = await scratch.pool.connect();
  try {
    return await readSchemaFacts(client, schema);
  } finally {
    client.release();
  }
}

describe('schema facts', () => {
  it('a schema migrated to version 23 has exactly the catalog duroxide-pg 0.1.35 creates', async () => {
    const { serverVersion: _v, schemaPlaceholder: _p, ...expected } = await fixture();
    expect(await factsAfter(23)).toEqual(expected);
  });

  it('the latest schema differs from 0.1.35 only by what 0025 and 0026 add', async () => {
    const { serverVersion: _v, schemaPlaceholder: _p, ...expected } = await fixture();
    // 0025 and 0026 redefine fetch, ack, renew and abandon with unchanged signatures and result
    // shapes; the only catalog change is 0026's unique index on instance_locks(lock_token).
    const locks = expected.tables.find((t) => t.name === 'instance_locks');
    locks?.indexes.push({
      name: 'idx_instance_locks_lock_token',
      definition:
        'CREATE UNIQUE INDEX idx_instance_locks_lock_token ON {schema}.instance_locks USING btree (lock_token)',
      unique: true,
      primary: false,
    });
    locks?.indexes.sort((a, b) => (a.name < b.name ? -1 : 1));
    expected.migrations.push(
      { version: 25, name: '0025_fetch_orchestration_lease_at_claim.sql' },
      { version: 26, name: '0026_serialize_orchestration_lock_mutations.sql' },
    );
    expect(await factsAfter()).toEqual(expected);
  });

  it('the duro track adds only its ledger, its functions, its triggers and its worker_queue indexes', async () => {
    const plain = await factsAfter(undefined, false);
    const extended = await factsAfter(undefined, true);
    expect(extended.tables.map((t) => t.name)).toEqual(
      ['_duro_migrations', ...plain.tables.map((t) => t.name)].sort(),
    );
    expect(extended.functions.map((f) => f.name).filter((n) => n.startsWith('duro_'))).toEqual([
      'duro_ack_orchestration_items',
      'duro_ack_orchestration_items_claiming',
      'duro_ack_orchestration_turns_together',
      'duro_ack_work_items_claiming_turns',
      'duro_claim_orchestration_turn',
      'duro_fetch_orchestration_item',
      'duro_fetch_orchestration_items',
      'duro_notify_instance_release',
      'duro_notify_queue_insert',
      'duro_notify_queue_release',
      'duro_wait_for_instance_release',
      'duro_wakeup_channel',
    ]);
    expect(extended.functions.filter((f) => !f.name.startsWith('duro_'))).toEqual(plain.functions);
    const triggers = extended.tables.flatMap((t) => t.triggers.map((tr) => `${t.name}.${tr.name}`));
    expect(triggers.sort()).toEqual([
      'instance_locks.duro_wakeup_on_instance_release',
      'orchestrator_queue.duro_wait_for_instance_release',
      'orchestrator_queue.duro_wakeup_on_insert',
      'orchestrator_queue.duro_wakeup_on_release',
      'worker_queue.duro_wakeup_on_insert',
      'worker_queue.duro_wakeup_on_release',
    ]);
    const duroIndexes = extended.tables.flatMap((t) =>
      t.indexes.filter((i) => i.name.startsWith('duro_')).map((i) => i.definition),
    );
    expect(duroIndexes).toEqual([
      'CREATE INDEX duro_idx_executions_status ON {schema}.executions USING btree (status, instance_id, execution_id)',
      'CREATE INDEX duro_idx_instances_created ON {schema}.instances USING btree (created_at, instance_id)',
      'CREATE INDEX duro_idx_instances_id_pattern ON {schema}.instances USING btree (instance_id text_pattern_ops)',
      'CREATE INDEX duro_idx_instances_name_created ON {schema}.instances USING btree (orchestration_name, created_at, instance_id)',
      'CREATE INDEX duro_idx_worker_lease_expiry ON {schema}.worker_queue USING btree (locked_until) WHERE (lock_token IS NOT NULL)',
      'CREATE INDEX duro_idx_worker_ready ON {schema}.worker_queue USING btree (id) WHERE (lock_token IS NULL)',
    ]);
    const duroxideTrackOnly = (facts: SchemaFacts): SchemaFacts['tables'] =>
      facts.tables
        .filter((t) => t.name !== '_duro_migrations')
        .map((t) => ({
          ...t,
          triggers: [],
          indexes: t.indexes.filter((i) => !i.name.startsWith('duro_')),
        }));
    expect(duroxideTrackOnly(extended)).toEqual(duroxideTrackOnly(plain));
  });
});
