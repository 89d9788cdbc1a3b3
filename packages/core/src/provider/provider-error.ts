import type { ErrorDetails } from '../model/error-details.js';

const PROVIDER_ERROR = Symbol.for('@duro/core/ProviderError');

/**
 * A failed provider operation, as duroxide's `ProviderError`. A retryable error (a lost
 * connection, a serialization conflict) may succeed when tried again; a permanent one (an invalid
 * lock token, a duplicate event) never will. Callers match on message texts such as
 * `"Invalid lock token"`, so providers must keep them.
 */
export class ProviderError extends Error {
  /** Always `'ProviderError'`. */
  override readonly name = 'ProviderError';
  /** @internal brand checked by {@link ProviderError.isInstance} */
  readonly [PROVIDER_ERROR] = true;

  constructor(
    /** The operation that failed, such as `"ack_orchestration_item"`. */
    readonly operation: string,
    /** What went wrong, without the operation. */
    readonly detail: string,
    /** Whether trying again can succeed. */
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${detail}`, options);
  }

  /** An error that may succeed when the operation is tried again. */
  static retryable(
    operation: string,
    detail: string,
    options?: { cause?: unknown },
  ): ProviderError {
    return new ProviderError(operation, detail, true, options);
  }

  /** An error that will fail the same way every time. */
  static permanent(
    operation: string,
    detail: string,
    options?: { cause?: unknown },
  ): ProviderError {
    return new ProviderError(operation, detail, false, options);
  }

  /**
   * Whether `value` is a `ProviderError`, also when it comes from another copy of `@duro/core`
   * in `node_modules` (where `instanceof` would say no).
   */
  static isInstance(value: unknown): value is ProviderError {
    return typeof value === 'object' && value !== null && PROVIDER_ERROR in value;
  }

  /** Whether trying again can succeed. */
  isRetryable(): boolean {
    return this.retryable;
  }

  /** The `Infrastructure` error details an orchestration fails with when this error is final. */
  toInfrastructureError(): ErrorDetails {
    return {
      type: 'Infrastructure',
      operation: this.operation,
      message: this.detail,
      retryable: this.retryable,
    };
  }
}
