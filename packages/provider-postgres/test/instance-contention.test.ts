import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';
import { startOrchestration } from './support/turns.js';

const database = useTestDatabase();

describe('claiming instances under contention', () => {
  it('fetches for other instances are not held up by an instance another session holds', async () => {
    const provider = await database.newProvider({}, 'held_instance');
    await provider.enqueueForOrchestrator(startOrchestration('held'), null);
    await provider.enqueueForOrchestrator(startOrchestration('free'), null);

    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        'SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2)), pg_advisory_xact_lock(hashtext($2))',
        [provider.schema, 'held'],
      );
      // The held instance has the older message, so it is the first candidate; the claim skips
      // it instead of waiting, while the holder's transaction is still open.
      const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
      expect(fetched?.item.instance).toBe('free');
      expect(await provider.fetchOrchestrationItem(30_000, 0, null)).toBeNull();
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    const afterRelease = await provider.fetchOrchestrationItem(30_000, 0, null);
    expect(afterRelease?.item.instance).toBe('held');
  });

  it("a claim skips an instance whose lock duroxide-pg's one-key form holds past 100 ms", async () => {
    // Where duroxide-pg's runner applied the duroxide track, its ack holds only this form while
    // it commits; a lease that lapsed meanwhile must not hand the instance to a claim.
    const provider = await database.newProvider({}, 'one_key');
    await provider.enqueueForOrchestrator(startOrchestration('acking'), null);
    const lapsed = await provider.fetchOrchestrationItem(1, 0, null);
    expect(lapsed?.item.instance).toBe('acking');
    await new Promise((resolve) => setTimeout(resolve, 20));

    const acking = new pg.Client({ connectionString: database.url });
    await acking.connect();
    try {
      await acking.query('BEGIN');
      await acking.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['acking']);
      expect(await provider.fetchOrchestrationItem(30_000, 0, null)).toBeNull();
      expect(await provider.fetchOrchestrationItems(30_000, 0, null, 8)).toEqual([]);
    } finally {
      await acking.query('COMMIT');
      await acking.end();
    }
    expect((await provider.fetchOrchestrationItem(30_000, 0, null))?.item.instance).toBe('acking');
  });

  it('a claim waits out a one-key hold that ends within 100 ms, such as an ack of the same id in another schema', async () => {
    // The one-key form is the instance id alone, so an ack in any schema of the database holds
    // it; that ack notifies only its own schema, so a claim that skipped here would leave the
    // work waiting for the next notification or poll.
    const provider = await database.newProvider({}, 'one_key_brief');
    await provider.enqueueForOrchestrator(startOrchestration('same-id'), null);

    const otherSchemaAck = new pg.Client({ connectionString: database.url });
    await otherSchemaAck.connect();
    try {
      await otherSchemaAck.query('BEGIN');
      await otherSchemaAck.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['same-id']);
      const commitSoon = new Promise((resolve) => setTimeout(resolve, 30)).then(() =>
        otherSchemaAck.query('COMMIT'),
      );
      const fetched = await provider.fetchOrchestrationItems(30_000, 0, null, 8);
      await commitSoon;
      expect(fetched.map((item) => item.item.instance)).toEqual(['same-id']);
    } finally {
      await otherSchemaAck.end();
    }
  });

  it('ten instances and ten concurrent fetchers fetch each instance exactly once', async () => {
    const provider = await database.newProvider({ poolSize: 10 }, 'ten_fetchers');
    const instances = Array.from({ length: 10 }, (_, i) => `instance-${i}`);
    for (const instance of instances) {
      await provider.enqueueForOrchestrator(startOrchestration(instance), null);
    }
    const fetched = await Promise.all(
      instances.map(() => provider.fetchOrchestrationItem(30_000, 0, null)),
    );
    const claimed = fetched.map((f) => f?.item.instance).sort();
    expect(claimed).toEqual([...instances].sort());
    expect(new Set(fetched.map((f) => f?.lockToken)).size).toBe(10);
  });

  it('two schemas with the same instance ids do not interfere', async () => {
    const tenantA = await database.newProvider({}, 'tenant_a');
    const tenantB = await database.newProvider({}, 'tenant_b');
    await tenantA.enqueueForOrchestrator(startOrchestration('shared-id'), null);
    await tenantB.enqueueForOrchestrator(startOrchestration('shared-id'), null);

    // Both claims hold the same instance id at once, each in its own schema.
    const a = await tenantA.fetchOrchestrationItem(30_000, 0, null);
    const b = await tenantB.fetchOrchestrationItem(30_000, 0, null);
    expect(a?.item.instance).toBe('shared-id');
    expect(b?.item.instance).toBe('shared-id');
    if (a === null || b === null) return;

    await tenantA.ackOrchestrationItem(
      a.lockToken,
      1,
      [],
      [],
      [],
      {
        orchestrationName: 'TenantA',
        orchestrationVersion: '1.0.0',
      },
      [],
    );
    // A's token means nothing in B's schema, and B's lock survived A's ack.
    await expect(tenantB.ackOrchestrationItem(a.lockToken, 1, [], [], [], {}, [])).rejects.toThrow(
      /Invalid lock token/,
    );
    await tenantB.ackOrchestrationItem(
      b.lockToken,
      1,
      [],
      [],
      [],
      {
        orchestrationName: 'TenantB',
        orchestrationVersion: '2.0.0',
      },
      [],
    );

    expect((await tenantA.getInstanceInfo('shared-id')).orchestrationName).toBe('TenantA');
    expect((await tenantB.getInstanceInfo('shared-id')).orchestrationName).toBe('TenantB');
    expect(await tenantA.listInstances()).toEqual(['shared-id']);
    expect(await tenantB.listInstances()).toEqual(['shared-id']);
  });
});
