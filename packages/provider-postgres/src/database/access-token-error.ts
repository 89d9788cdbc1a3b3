/**
 * Why an Entra ID access token could not be used:
 * - `unavailable`: no token could be had (the credential failed, or `@azure/identity` is not
 *   installed for the default credential);
 * - `expired`: the token expired and no new one could be had, or the credential returned one
 *   that had already expired;
 * - `rejected`: the server refused the login with the token (SQLSTATE `28000` or `28P01`), which
 *   happens for a moment while a token is being rotated.
 */
export type AccessTokenErrorCode = 'unavailable' | 'expired' | 'rejected';

/**
 * Thrown by `PostgresProvider.connectWithEntra` when no usable first token can be had, and the
 * cause of the retryable `ProviderError` of a call that needed a new connection while the token
 * could not be had or was refused.
 */
export class AccessTokenError extends Error {
  /** Always `'AccessTokenError'`. */
  override readonly name = 'AccessTokenError';

  constructor(
    /** What went wrong. */
    readonly code: AccessTokenErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True for an `AccessTokenError`, also one thrown by another copy of this package. */
  static isInstance(error: unknown): error is AccessTokenError {
    return error instanceof Error && error.name === 'AccessTokenError' && 'code' in error;
  }
}
