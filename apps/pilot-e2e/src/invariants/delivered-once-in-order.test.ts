import { describe, expect, it } from 'vitest';
import { checkDeliveredOnceInOrder } from './delivered-once-in-order.js';
import { CHILD_PLAN, ROOT_LEDGER, healthyOutcomes } from './outcomes.test-support.js';

const SENT = new Map([['s/session-0000', 4]]);

describe('delivered-once-in-order', () => {
  it('passes when every message was delivered once and in order', () => {
    const result = checkDeliveredOnceInOrder(healthyOutcomes(), SENT, []);
    expect(result.passed).toBe(true);
    expect(result.figures).toMatchObject({ clientMessages: 4, childUpdates: 3 });
  });

  it('fails when a session recorded a duplicate or out-of-order delivery', () => {
    const ledger = {
      ...ROOT_LEDGER,
      anomalyCount: 1,
      anomalies: ['client message 2 arrived when 3 was due'],
    };
    const result = checkDeliveredOnceInOrder(healthyOutcomes(ledger), SENT, []);
    expect(result.violations).toEqual(['s/session-0000: client message 2 arrived when 3 was due']);
  });

  it('fails when a client message was lost', () => {
    const result = checkDeliveredOnceInOrder(
      healthyOutcomes(),
      new Map([['s/session-0000', 5]]),
      [],
    );
    expect(result.violations).toEqual(['s/session-0000 was delivered 4 of 5 client messages']);
  });

  it("fails when a child's final update never arrived", () => {
    const ledger = {
      ...ROOT_LEDGER,
      children: { [CHILD_PLAN.id]: { next: 2, nonces: ['a', 'b'], final: false } },
    };
    const result = checkDeliveredOnceInOrder(healthyOutcomes(ledger), SENT, []);
    expect(result.violations).toEqual([
      's/session-0000 was delivered 2 of 3 updates of session-0000.c0',
    ]);
  });

  it('fails on an anomaly a session that never completed carried into its last execution', () => {
    const [root, child] = healthyOutcomes();
    const stuck = {
      ...ROOT_LEDGER,
      children: { [CHILD_PLAN.id]: { next: 3, nonces: ['a', 'b', 'c'], final: false } },
      anomalyCount: 1,
      anomalies: ['update 2 of session-0000.c0 arrived when 1 was due'],
    };
    const running = { ...root!, status: 'Running', summary: null, carriedLedger: stuck };
    const result = checkDeliveredOnceInOrder([running, child!], SENT, []);
    expect(result.violations).toEqual([
      's/session-0000: update 2 of session-0000.c0 arrived when 1 was due',
    ]);
    // Its counts are short by design: only the anomaly is this invariant's to report.
    const clean = { ...running, carriedLedger: { ...stuck, anomalyCount: 0, anomalies: [] } };
    expect(checkDeliveredOnceInOrder([clean, child!], SENT, []).passed).toBe(true);
  });

  it('fails when a client could not enqueue a message', () => {
    expect(
      checkDeliveredOnceInOrder(healthyOutcomes(), SENT, ['s/session-0000 #2: boom']).passed,
    ).toBe(false);
  });

  it('excuses a client message delivered twice only when the client re-sent it after a failed enqueue', () => {
    const ledger = {
      ...ROOT_LEDGER,
      anomalyCount: 1,
      anomalies: ['client message 1 arrived when 2 was due'],
    };
    const resent = new Map([['s/session-0000', new Set([1])]]);
    expect(checkDeliveredOnceInOrder(healthyOutcomes(ledger), SENT, [], resent).passed).toBe(true);
    const other = new Map([['s/session-0000', new Set([0])]]);
    expect(checkDeliveredOnceInOrder(healthyOutcomes(ledger), SENT, [], other).passed).toBe(false);
  });
});
