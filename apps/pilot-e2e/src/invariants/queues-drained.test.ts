import { describe, expect, it } from 'vitest';
import { checkQueuesDrained } from './queues-drained.js';

const EMPTY = {
  schema: 's',
  orchestratorDepth: 0,
  workerDepth: 0,
  orchestratorRows: 0,
  workerRows: 0,
};

describe('queues-drained', () => {
  it('passes when nothing is left', () => {
    expect(checkQueuesDrained([EMPTY, { ...EMPTY, schema: 't' }]).passed).toBe(true);
  });

  it('fails on a leftover row, even one the depth count does not see (a locked or future row)', () => {
    const result = checkQueuesDrained([{ ...EMPTY, orchestratorRows: 1 }]);
    expect(result.violations).toEqual(['s: orchestrator queue rows is 1']);
  });
});
