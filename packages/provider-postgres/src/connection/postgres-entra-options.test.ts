import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTRA_AUDIENCE, resolveEntraOptions } from './postgres-entra-options.js';
import { resolveProviderOptions } from '../postgres-provider-options.js';

const credential = { getToken: async () => null };

describe('pool settings', () => {
  it('the pool size comes from DUROXIDE_PG_POOL_MAX when no option gives it, else 10 as in duroxide-pg', () => {
    expect(resolveProviderOptions({}, {}).poolSize).toBe(10);
    expect(resolveProviderOptions({}, { DUROXIDE_PG_POOL_MAX: '24' }).poolSize).toBe(24);
    expect(resolveProviderOptions({ poolSize: 3 }, { DUROXIDE_PG_POOL_MAX: '24' }).poolSize).toBe(
      3,
    );
    expect(resolveEntraOptions({}, { DUROXIDE_PG_POOL_MAX: '7' }).provider.poolSize).toBe(7);
  });

  it('a DUROXIDE_PG_POOL_MAX that is not a positive integer is refused, naming the variable', () => {
    for (const text of ['0', 'ten', '2.5', '-1']) {
      expect(() => resolveProviderOptions({}, { DUROXIDE_PG_POOL_MAX: text })).toThrow(
        `DUROXIDE_PG_POOL_MAX must be a positive integer, got '${text}'`,
      );
    }
  });

  it('the acquire timeout is 30 s by default, as in duroxide-pg', () => {
    expect(resolveProviderOptions({}, {}).connectionTimeoutMs).toBe(30_000);
    expect(resolveEntraOptions({}, {}).provider.connectionTimeoutMs).toBe(30_000);
  });
});

describe("Entra ID options (duroxide-node's PostgresEntraOptions)", () => {
  it('default to the Azure audience, a 20-minute refresh interval and verify-full TLS', () => {
    const resolved = resolveEntraOptions({ credential }, {});
    expect(resolved.audience).toBe(DEFAULT_ENTRA_AUDIENCE);
    expect(resolved.refreshIntervalMs).toBe(20 * 60_000);
    expect(resolved.provider.ssl).toEqual({ mode: 'verify-full' });
  });

  it('maxConnections and acquireTimeoutMs set the pool size and its acquire timeout', () => {
    const resolved = resolveEntraOptions({ maxConnections: 4, acquireTimeoutMs: 5_000 }, {});
    expect(resolved.provider.poolSize).toBe(4);
    expect(resolved.provider.connectionTimeoutMs).toBe(5_000);
  });

  it.each([
    [{ ssl: { mode: 'require' as 'verify-full' } }, /ssl.mode must be verify-full, got 'require'/],
    [
      { credential, getToken: async () => ({ token: '', expiresOnTimestamp: 0 }) },
      /either credential or getToken/,
    ],
    [{ maxConnections: 0 }, /maxConnections must be a positive integer, got 0/],
    [{ acquireTimeoutMs: -1 }, /acquireTimeoutMs must be a non-negative integer, got -1/],
    [{ refreshIntervalMs: 0.5 }, /refreshIntervalMs must be a positive integer, got 0.5/],
    [{ audience: ' ' }, /audience must not be empty/],
  ])('refuse %o with an error naming the option', (options, message) => {
    expect(() => resolveEntraOptions(options, {})).toThrow(message);
  });
});
