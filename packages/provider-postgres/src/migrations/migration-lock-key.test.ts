import { describe, expect, it } from 'vitest';
import { migrationLockKey } from './migration-lock-key.js';

describe('migration lock key', () => {
  // Values computed from duroxide-pg's advisory_lock_key (src/migrations.rs).
  it.each([
    ['public', '3191286213066983517'],
    ['duroxide', '-3650277599072027632'],
    ['tenant_a', '202983607311223640'],
    ['dpg', '6040843317191276733'],
  ])('is the key duroxide-pg takes for schema %s', (schema, key) => {
    expect(migrationLockKey(schema)).toBe(key);
  });
});
