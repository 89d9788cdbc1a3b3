import { describe, expect, it } from 'vitest';
import type { AuditTrail } from '../observe/audit-records.js';
import { checkNoAckLoop } from './no-ack-loop.js';
import { claimRecord, lockEvent } from './outcomes.test-support.js';

/** Claims of messages `a` and `b` (tokens a1…, b1…), each lost `losses` times, one acknowledged. */
function trail(losses: Record<string, number>): AuditTrail {
  const claims = Object.entries(losses).flatMap(([message, count]) =>
    Array.from({ length: count + 1 }, (_, index) =>
      claimRecord({ messageKey: message, lockToken: `${message}${index}` }),
    ),
  );
  const lockEvents = claims.map((claim, index) =>
    lockEvent({
      lockToken: claim.lockToken,
      kind: claims[index + 1]?.messageKey === claim.messageKey ? 'ack-lost' : 'ack',
    }),
  );
  return { claims, lockEvents, waits: [] };
}

describe('no-ack-loop', () => {
  it('passes while each message fails at most the bound', () => {
    const result = checkNoAckLoop(trail({ a: 2, b: 1 }), 2);
    expect(result.passed).toBe(true);
    expect(result.figures).toMatchObject({ failures: 3, messages: 2, maxPerMessage: 2 });
  });

  it('fails when one message keeps failing on an invalid lock token', () => {
    const result = checkNoAckLoop(trail({ a: 4 }), 3);
    expect(result.violations).toEqual([
      's/worker/a failed 4 acknowledgements on an invalid lock token',
    ]);
  });

  it('fails a run in which no acknowledgement was observed', () => {
    const result = checkNoAckLoop({ claims: [], lockEvents: [], waits: [] }, 3);
    expect(result.violations).toEqual([
      'no acknowledgement was observed: there was nothing to judge',
    ]);
  });
});
