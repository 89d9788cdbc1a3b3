import type { Logger } from '@duro/core';
import { AccessTokenError } from '../database/access-token-error.js';
import type { EntraAccessToken } from './postgres-entra-options.js';

/** Gets a new token; `null` means the credential had none. @internal */
export type AccessTokenSource = () => Promise<EntraAccessToken | null | undefined>;

/** Settings of a {@link RefreshingAccessToken}. @internal */
export interface RefreshingAccessTokenOptions {
  /** The longest time between two refreshes, ms (duroxide-pg's refresh interval ceiling). */
  readonly refreshIntervalMs: number;
  /** Where failed refreshes are reported (warn) and successful ones (debug). */
  readonly logger: Logger;
  /** What the token is for (the audience), named in messages. */
  readonly audience: string;
  /** The clock that token expiry times are compared with, epoch ms. @default Date.now */
  readonly nowMs?: () => number;
}

/**
 * How long before its expiry a token is replaced, ms: duroxide-pg's safety margin, larger than
 * any likely clock skew between this machine and the token issuer.
 */
const EXPIRY_MARGIN_MS = 5 * 60_000;
/** The shortest wait between two successful refreshes that the expiry times ask for, ms. */
const MIN_REFRESH_DELAY_MS = 1_000;
/** The wait after a first failed refresh, ms (shorter when the refresh interval is). */
const FIRST_RETRY_DELAY_MS = 1_000;
/** The longest wait between two failed refreshes, ms (duroxide-pg's retry after a failure). */
const MAX_RETRY_DELAY_MS = 30_000;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An access token kept fresh in the background: each new connection asks {@link current} for its
 * password, and a timer replaces the token before it expires, after at most
 * `refreshIntervalMs`. A failed refresh is logged and tried again with backoff (from one second,
 * doubling up to 30 s) while the current token stays in use; connections already open are not
 * touched. Once the token has expired, {@link current} tries one refresh itself and otherwise
 * fails with an error that says the token expired.
 * @internal
 */
export class RefreshingAccessToken {
  readonly #source: AccessTokenSource;
  readonly #options: RefreshingAccessTokenOptions;
  readonly #nowMs: () => number;
  #token: EntraAccessToken;
  #refreshing: Promise<EntraAccessToken> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #failures = 0;
  #closed = false;

  private constructor(
    source: AccessTokenSource,
    options: RefreshingAccessTokenOptions,
    token: EntraAccessToken,
  ) {
    this.#source = source;
    this.#options = options;
    this.#nowMs = options.nowMs ?? Date.now;
    this.#token = token;
    this.#schedule(this.#delayAfterRefresh());
  }

  /**
   * Gets the first token and starts refreshing it.
   * @throws {AccessTokenError} (`unavailable`) when the source fails or has no token, or
   * (`expired`) when the token it returns has already expired.
   */
  static async acquire(
    source: AccessTokenSource,
    options: RefreshingAccessTokenOptions,
  ): Promise<RefreshingAccessToken> {
    const nowMs = options.nowMs ?? Date.now;
    const token = await checkedToken(source, nowMs, options.audience);
    return new RefreshingAccessToken(source, options, token);
  }

  /** When the current token expires, epoch ms. */
  get expiresOnTimestamp(): number {
    return this.#token.expiresOnTimestamp;
  }

  /**
   * The token for a new connection: the current one while it has not expired, else a new one.
   * @throws {AccessTokenError} (`expired`) when the token expired and no new one could be had.
   */
  async current(): Promise<string> {
    const token = this.#token;
    if (this.#nowMs() < token.expiresOnTimestamp) return token.token;
    try {
      return (await this.#refresh()).token;
    } catch (error) {
      throw new AccessTokenError(
        'expired',
        `the Entra ID access token for ${this.#options.audience} expired at ` +
          `${new Date(token.expiresOnTimestamp).toISOString()} and no new one could be had: ` +
          describe(error),
        { cause: error },
      );
    }
  }

  /** Stops refreshing. Connections opened later fail once the current token has expired. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Gets a new token, sharing one request among the callers that ask at the same time. */
  #refresh(): Promise<EntraAccessToken> {
    this.#refreshing ??= checkedToken(this.#source, this.#nowMs, this.#options.audience)
      .then((token) => {
        this.#token = token;
        this.#failures = 0;
        this.#schedule(this.#delayAfterRefresh());
        this.#options.logger.debug(
          { audience: this.#options.audience, expiresAt: new Date(token.expiresOnTimestamp) },
          'refreshed the Entra ID access token',
        );
        return token;
      })
      .finally(() => {
        this.#refreshing = null;
      });
    return this.#refreshing;
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#refresh().catch((error: unknown) => this.#failed(error));
    }, delayMs);
    // A process whose work is done must not stay up for a refresh.
    this.#timer.unref();
  }

  #failed(error: unknown): void {
    this.#failures += 1;
    const retryInMs = Math.min(
      MAX_RETRY_DELAY_MS,
      Math.min(FIRST_RETRY_DELAY_MS, this.#options.refreshIntervalMs) * 2 ** (this.#failures - 1),
    );
    this.#options.logger.warn(
      {
        audience: this.#options.audience,
        error: describe(error),
        failures: this.#failures,
        retryInMs,
        expiresAt: new Date(this.#token.expiresOnTimestamp),
      },
      'refreshing the Entra ID access token failed; connections already open keep working and new ones use the current token until it expires',
    );
    this.#schedule(retryInMs);
  }

  /**
   * The wait before the next refresh: before the token's expiry by duroxide-pg's margin (or half
   * its remaining life, for a short-lived token), or when the credential said to refresh it, and
   * never longer than the refresh interval.
   */
  #delayAfterRefresh(): number {
    const token = this.#token;
    const now = this.#nowMs();
    const remainingMs = token.expiresOnTimestamp - now;
    const byExpiry =
      token.refreshAfterTimestamp !== undefined
        ? token.refreshAfterTimestamp - now
        : Math.max(remainingMs - EXPIRY_MARGIN_MS, remainingMs / 2);
    return Math.min(this.#options.refreshIntervalMs, Math.max(MIN_REFRESH_DELAY_MS, byExpiry));
  }
}

async function checkedToken(
  source: AccessTokenSource,
  nowMs: () => number,
  audience: string,
): Promise<EntraAccessToken> {
  let token: EntraAccessToken | null | undefined;
  try {
    token = await source();
  } catch (error) {
    throw new AccessTokenError(
      'unavailable',
      `could not get an Entra ID access token for ${audience}: ${describe(error)}`,
      { cause: error },
    );
  }
  if (token === null || token === undefined || typeof token.token !== 'string') {
    throw new AccessTokenError(
      'unavailable',
      `the credential returned no Entra ID access token for ${audience}`,
    );
  }
  if (!Number.isFinite(token.expiresOnTimestamp)) {
    throw new AccessTokenError(
      'unavailable',
      `the credential returned an access token for ${audience} without an expiry time (expiresOnTimestamp, epoch ms)`,
    );
  }
  if (token.expiresOnTimestamp <= nowMs()) {
    throw new AccessTokenError(
      'expired',
      `the credential returned an access token for ${audience} that had already expired (at ` +
        `${new Date(token.expiresOnTimestamp).toISOString()})`,
    );
  }
  return token;
}
