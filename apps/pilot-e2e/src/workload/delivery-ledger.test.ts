import { describe, expect, it } from 'vitest';
import {
  EMPTY_LEDGER,
  finishedChildren,
  recordDelivery,
  type DeliveryLedger,
} from './delivery-ledger.js';
import type { SessionMessage } from './session-message.js';

const prompt = (seq: number): SessionMessage => ({ from: 'client', seq, kind: 'prompt' });
const update = (seq: number, nonce: string, final = false): SessionMessage => ({
  kind: 'update',
  from: 'child',
  seq,
  nonce,
  final,
});

function deliver(messages: readonly SessionMessage[]): DeliveryLedger {
  return messages.reduce(recordDelivery, EMPTY_LEDGER);
}

describe('the delivery ledger', () => {
  it('accepts client messages and child updates in order', () => {
    const ledger = deliver([prompt(0), update(0, 'a'), prompt(1), update(1, 'b', true)]);
    expect(ledger).toMatchObject({ client: 2, anomalyCount: 0 });
    expect(finishedChildren(ledger)).toBe(1);
  });

  it('records a client message delivered twice, skipped or out of order', () => {
    expect(deliver([prompt(0), prompt(0)]).anomalies).toEqual([
      'client message 0 arrived when 1 was due',
    ]);
    expect(deliver([prompt(1)]).anomalyCount).toBe(1);
  });

  it('allows an update sent again by a re-run activity (new nonce), even after later updates', () => {
    const ledger = deliver([update(0, 'a'), update(0, 'a2'), update(1, 'b'), update(0, 'a3')]);
    expect(ledger).toMatchObject({ resent: 2, anomalyCount: 0 });
  });

  it('records an update the store delivered twice (same nonce) and a gap', () => {
    expect(deliver([update(0, 'a'), update(0, 'a')]).anomalies).toEqual([
      'update 0 of child arrived twice (same nonce)',
    ]);
    expect(deliver([update(1, 'b')]).anomalies).toEqual([
      'update 1 of child arrived when 0 was due',
    ]);
  });

  it('records anything new after the final update', () => {
    expect(deliver([update(0, 'a', true), update(1, 'b')]).anomalyCount).toBe(1);
  });
});
