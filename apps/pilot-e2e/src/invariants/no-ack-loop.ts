import type { AuditRecord } from '../observe/audit-log.js';
import { invariantResult, type InvariantResult } from './invariant-result.js';

/**
 * No message's acknowledgement failed on an invalid lock token over and over: a few failures are
 * expected (a frozen or cut-off worker that lost its lock), but the count per message must stay
 * at or under `maxPerMessage`, or the message is stuck in the livelock duroxide-pg #21 describes.
 */
export function checkNoAckLoop(
  audit: readonly AuditRecord[],
  maxPerMessage: number,
): InvariantResult {
  const perMessage = new Map<string, number>();
  for (const record of audit) {
    if (record.kind !== 'lock-token-ack-failure') continue;
    const key = `${record.schema}/${record.queue}/${record.messageKey}`;
    perMessage.set(key, (perMessage.get(key) ?? 0) + 1);
  }
  const counts = [...perMessage.values()];
  const violations = [...perMessage]
    .filter(([, count]) => count > maxPerMessage)
    .map(([key, count]) => `${key} failed ${count} acknowledgements on an invalid lock token`);
  return invariantResult(
    'no-ack-loop',
    `${counts.reduce((sum, count) => sum + count, 0)} lock-token ack failures over ${perMessage.size} messages (bound ${maxPerMessage} per message)`,
    {
      failures: counts.reduce((sum, count) => sum + count, 0),
      messages: perMessage.size,
      maxPerMessage: counts.length === 0 ? 0 : Math.max(...counts),
      bound: maxPerMessage,
    },
    violations,
  );
}
