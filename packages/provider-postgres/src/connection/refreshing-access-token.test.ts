import type { LogFields, Logger } from '@duro/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessTokenError } from '../database/access-token-error.js';
import type { EntraAccessToken } from './postgres-entra-options.js';
import { RefreshingAccessToken } from './refreshing-access-token.js';

const MINUTE = 60_000;

/** A token source whose answers the test scripts: tokens valid for `lifetimeMs`, or failures. */
function scriptedSource(lifetimeMs: number) {
  let issued = 0;
  let failing = false;
  const source = vi.fn(async (): Promise<EntraAccessToken> => {
    if (failing) throw new Error('token service unavailable');
    issued += 1;
    return { token: `token-${issued}`, expiresOnTimestamp: Date.now() + lifetimeMs };
  });
  return {
    source,
    fail: (value: boolean) => {
      failing = value;
    },
  };
}

function recordingLogger(): Logger & { warnings: LogFields[] } {
  const warnings: LogFields[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    debug: ignore,
    info: ignore,
    error: ignore,
    warn: (fields) => warnings.push(fields),
  };
}

const tokens: RefreshingAccessToken[] = [];

async function acquire(
  source: () => Promise<EntraAccessToken | null>,
  refreshIntervalMs = 20 * MINUTE,
  logger: Logger = recordingLogger(),
): Promise<RefreshingAccessToken> {
  const token = await RefreshingAccessToken.acquire(source, {
    refreshIntervalMs,
    logger,
    audience: 'https://db.example/.default',
  });
  tokens.push(token);
  return token;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  for (const token of tokens.splice(0)) token.close();
  vi.useRealTimers();
});

describe('a refreshing access token', () => {
  it('is replaced five minutes before it expires, so new connections never get an expired one', async () => {
    const { source } = scriptedSource(60 * MINUTE);
    const token = await acquire(source, 2 * 60 * MINUTE);
    expect(await token.current()).toBe('token-1');
    await vi.advanceTimersByTimeAsync(55 * MINUTE - 1);
    expect(await token.current()).toBe('token-1');
    await vi.advanceTimersByTimeAsync(1);
    expect(await token.current()).toBe('token-2');
  });

  it('is replaced at the latest after the refresh interval', async () => {
    const { source } = scriptedSource(60 * MINUTE);
    const token = await acquire(source, 20 * MINUTE);
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(await token.current()).toBe('token-2');
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(await token.current()).toBe('token-3');
  });

  it('is replaced when the credential advises (refreshAfterTimestamp)', async () => {
    let issued = 0;
    const token = await acquire(
      async () => {
        issued += 1;
        return {
          token: `token-${issued}`,
          expiresOnTimestamp: Date.now() + 60 * MINUTE,
          refreshAfterTimestamp: Date.now() + 30 * MINUTE,
        };
      },
      2 * 60 * MINUTE,
    );
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(await token.current()).toBe('token-2');
  });

  it('a failed refresh is logged and retried with doubling waits while the current token stays in use', async () => {
    const { source, fail } = scriptedSource(60 * MINUTE);
    const logger = recordingLogger();
    const token = await acquire(source, 10 * MINUTE, logger);
    fail(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(logger.warnings).toHaveLength(1);
    expect(await token.current()).toBe('token-1');
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(logger.warnings.map((fields) => fields.retryInMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(logger.warnings[0]?.error).toBe(
      'could not get an Entra ID access token for https://db.example/.default: token service unavailable',
    );
    fail(false);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(await token.current()).toBe('token-2');
    expect(logger.warnings).toHaveLength(4);
  });

  it('the wait between failed refreshes grows to 30 seconds and no further', async () => {
    const { source, fail } = scriptedSource(60 * MINUTE);
    const logger = recordingLogger();
    await acquire(source, 10 * MINUTE, logger);
    fail(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE + 2 * MINUTE);
    expect(logger.warnings.map((fields) => fields.retryInMs).slice(-2)).toEqual([30_000, 30_000]);
  });

  it('once expired, a new connection gets a new token when the credential has one', async () => {
    const { source, fail } = scriptedSource(10 * MINUTE);
    const token = await acquire(source);
    fail(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    fail(false);
    expect(await token.current()).toBe('token-2');
  });

  it('once expired, with no new token to be had, a new connection fails with an error saying the token expired', async () => {
    const { source, fail } = scriptedSource(10 * MINUTE);
    const token = await acquire(source);
    fail(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    const error = await token.current().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AccessTokenError.isInstance(error) && error.code).toBe('expired');
    expect((error as Error).message).toMatch(
      /^the Entra ID access token for https:\/\/db\.example\/\.default expired at .+ and no new one could be had: .*token service unavailable$/,
    );
  });

  it('connections asking at once for a token after expiry share one request', async () => {
    const { source, fail } = scriptedSource(10 * MINUTE);
    const token = await acquire(source);
    fail(true);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    fail(false);
    const calls = source.mock.calls.length;
    const all = await Promise.all([token.current(), token.current(), token.current()]);
    expect(all).toEqual(['token-2', 'token-2', 'token-2']);
    expect(source.mock.calls.length).toBe(calls + 1);
  });

  it('stops refreshing when closed', async () => {
    const { source } = scriptedSource(60 * MINUTE);
    const token = await acquire(source, MINUTE);
    token.close();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a credential that fails', () => Promise.reject(new Error('no identity')), 'unavailable'],
    ['a credential with no token', () => Promise.resolve(null), 'unavailable'],
    [
      'a token that already expired',
      () => Promise.resolve({ token: 't', expiresOnTimestamp: Date.now() - 1 }),
      'expired',
    ],
  ] as const)('is not acquired from %s, with an error that says why', async (_, source, code) => {
    const error = await acquire(source).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AccessTokenError.isInstance(error) && error.code).toBe(code);
  });
});
