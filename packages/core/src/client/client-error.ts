import { ProviderError } from '../provider/provider-error.js';

const CLIENT_ERROR = Symbol.for('@duro/core/ClientError');

/** What went wrong in a client call, as duroxide's `ClientError` variants. */
export type ClientErrorKind =
  | 'Provider'
  | 'ManagementNotAvailable'
  | 'InvalidInput'
  | 'Timeout'
  | 'InstanceStillRunning'
  | 'CannotDeleteSubOrchestration'
  | 'InstanceNotFound';

/**
 * A failed `Client` call. `kind` says which of duroxide's `ClientError` variants it is; the
 * message is duroxide's text for it (`"Operation timed out"`, `"Instance x not found"`, ...).
 */
export class ClientError extends Error {
  /** Always `'ClientError'`. */
  override readonly name = 'ClientError';
  /** @internal brand checked by {@link ClientError.isInstance} */
  readonly [CLIENT_ERROR] = true;

  private constructor(
    /** Which failure this is. */
    readonly kind: ClientErrorKind,
    message: string,
    /** The instance the error is about, when there is one. */
    readonly instanceId: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** A provider failure; the `ProviderError` is the cause. */
  static provider(error: ProviderError): ClientError {
    return new ClientError('Provider', error.message, null, { cause: error });
  }

  /** The provider has no management interface (`ProviderAdmin`). */
  static managementNotAvailable(): ClientError {
    return new ClientError(
      'ManagementNotAvailable',
      "Management features not available - provider doesn't implement ProviderAdmin",
      null,
    );
  }

  /** A caller argument was refused (an empty or reserved instance id, input JSON cannot carry). */
  static invalidInput(message: string): ClientError {
    return new ClientError('InvalidInput', `Invalid input: ${message}`, null);
  }

  /** A `waitFor...` call reached its deadline. */
  static timeout(): ClientError {
    return new ClientError('Timeout', 'Operation timed out', null);
  }

  /** A delete without `force` found the instance running. */
  static instanceStillRunning(instanceId: string): ClientError {
    return new ClientError(
      'InstanceStillRunning',
      `Instance ${instanceId} is still running. Use force=true or cancel first.`,
      instanceId,
    );
  }

  /** A delete named a sub-orchestration instead of its root. */
  static cannotDeleteSubOrchestration(instanceId: string): ClientError {
    return new ClientError(
      'CannotDeleteSubOrchestration',
      `Cannot delete sub-orchestration ${instanceId} directly. Delete the root orchestration instead.`,
      instanceId,
    );
  }

  /** No instance has this id. */
  static instanceNotFound(instanceId: string): ClientError {
    return new ClientError('InstanceNotFound', `Instance ${instanceId} not found`, instanceId);
  }

  /** Whether `value` is a `ClientError`, also across copies of `@duro/core`. */
  static isInstance(value: unknown): value is ClientError {
    return typeof value === 'object' && value !== null && CLIENT_ERROR in value;
  }

  /** Whether trying again can succeed: timeouts and retryable provider errors. */
  isRetryable(): boolean {
    if (this.kind === 'Timeout') return true;
    return this.kind === 'Provider' && ProviderError.isInstance(this.cause) && this.cause.retryable;
  }
}

/** Runs a provider call, turning its failure into a `ClientError`. @internal */
export async function providerCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (ClientError.isInstance(error)) throw error;
    throw ClientError.provider(
      ProviderError.isInstance(error)
        ? error
        : ProviderError.retryable(
            operation,
            error instanceof Error ? error.message : String(error),
            { cause: error },
          ),
    );
  }
}
