import { describe, expect, it } from 'vitest';
import { checkNoAckLoop } from './no-ack-loop.js';
import { auditRecord } from './outcomes.test-support.js';

const failure = (messageKey: string) => auditRecord({ kind: 'lock-token-ack-failure', messageKey });

describe('no-ack-loop', () => {
  it('passes while each message fails at most the bound', () => {
    const result = checkNoAckLoop([failure('a'), failure('a'), failure('b')], 2);
    expect(result.passed).toBe(true);
    expect(result.figures).toMatchObject({ failures: 3, messages: 2, maxPerMessage: 2 });
  });

  it('fails when one message keeps failing on an invalid lock token', () => {
    const result = checkNoAckLoop(
      Array.from({ length: 4 }, () => failure('a')),
      3,
    );
    expect(result.violations).toEqual([
      's/orchestrator/a failed 4 acknowledgements on an invalid lock token',
    ]);
  });
});
