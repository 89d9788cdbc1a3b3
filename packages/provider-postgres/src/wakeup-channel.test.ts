import { describe, expect, it } from 'vitest';
import { InvalidSchemaNameError } from './migrations/schema-name.js';
import { wakeupChannel } from './wakeup-channel.js';

describe('wakeup channels', () => {
  it('names the queue and the lower-case schema when that fits', () => {
    expect(wakeupChannel('Tenant_A', 'orchestrator')).toBe('duro_orch_tenant_a');
    expect(wakeupChannel('tenant_a', 'worker')).toBe('duro_work_tenant_a');
  });

  it('stays within 63 bytes and distinct for long schema names', () => {
    const a = wakeupChannel(`${'s'.repeat(55)}_a`, 'orchestrator');
    const b = wakeupChannel(`${'s'.repeat(55)}_b`, 'orchestrator');
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^duro_orch_s{40}_[0-9a-f]{12}$/);
    expect(wakeupChannel('x'.repeat(63), 'worker')).toHaveLength(63);
  });

  it('refuses an unsafe schema name', () => {
    expect(() => wakeupChannel('a; drop table x', 'worker')).toThrow(InvalidSchemaNameError);
  });
});
