import { describe, expect, it } from 'vitest';
import { preparedStatementName } from './statement.js';

describe('prepared statement names', () => {
  it('are per schema', () => {
    expect(preparedStatementName('fetch_orch', 'tenant_a')).toBe('duro_fetch_orch_tenant_a');
    expect(preparedStatementName('fetch_orch', 'tenant_b')).toBe('duro_fetch_orch_tenant_b');
  });

  it('never exceed 63 bytes, and two long schemas with a common prefix keep distinct names', () => {
    const a = preparedStatementName('fetch_orch', `${'x'.repeat(60)}_a`);
    const b = preparedStatementName('fetch_orch', `${'x'.repeat(60)}_b`);
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
  });
});
