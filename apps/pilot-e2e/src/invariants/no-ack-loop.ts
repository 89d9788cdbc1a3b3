import type { AuditTrail } from '../observe/audit-records.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';

/**
 * No message's acknowledgement failed on an invalid lock token over and over: a few failures are
 * expected (a frozen or cut-off worker that lost its lock), but the count per message must stay
 * at or under `maxPerMessage`, or the message is stuck in the livelock duroxide-pg #21 describes.
 * A run in which no acknowledgement was observed at all has nothing to judge and fails.
 */
export function checkNoAckLoop(trail: AuditTrail, maxPerMessage: number): InvariantResult {
  const claimOf = new Map(trail.claims.map((claim) => [claim.lockToken, claim]));
  const perMessage = new Map<string, number>();
  let acks = 0;
  for (const event of trail.lockEvents) {
    if (event.kind === 'ack') acks += 1;
    if (event.kind !== 'ack-lost') continue;
    const claim = claimOf.get(event.lockToken);
    const key = `${claim?.schema ?? '?'}/${event.queue}/${claim?.messageKey ?? event.lockToken}`;
    perMessage.set(key, (perMessage.get(key) ?? 0) + 1);
  }
  const counts = [...perMessage.values()];
  const failures = counts.reduce((sum, count) => sum + count, 0);
  const violations = [...perMessage]
    .filter(([, count]) => count > maxPerMessage)
    .map(([key, count]) => `${key} failed ${count} acknowledgements on an invalid lock token`);
  if (acks === 0) violations.push('no acknowledgement was observed: there was nothing to judge');
  return invariantResult(
    'no-ack-loop',
    `${acks} acknowledgements, ${failures} lock-token ack failures over ${perMessage.size} messages (bound ${maxPerMessage} per message)`,
    {
      acks,
      failures,
      messages: perMessage.size,
      maxPerMessage: counts.length === 0 ? 0 : Math.max(...counts),
      bound: maxPerMessage,
    },
    violations,
  );
}
