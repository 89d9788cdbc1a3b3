import type { Provider } from '../provider/provider.js';

/**
 * What a provider offers, declared once in its {@link ProviderFactory}:
 * `describeProviderValidations` registers the validations of each capability the provider has.
 */
export interface ProviderCapabilities {
  /** Fetches wait up to their poll timeout for work (selects the long-poll cases of duroxide). */
  readonly longPolling: boolean;
  /** `fetchWorkItems` and `ackWorkItems`, duro's batched worker queue. */
  readonly batchedWorkerQueue: boolean;
  /** `fetchOrchestrationItems` and `ackOrchestrationItems`, duro's batched orchestration queue. */
  readonly batchedOrchestrationQueue: boolean;
  /** `ackOrchestrationItems` honours an `ActivityClaim`, writing activities claimed. */
  readonly activityClaims: boolean;
}

/**
 * How a provider under validation is made and inspected: the TypeScript counterpart of
 * duroxide's `ProviderFactory`. Every hook the suite needs is required, so a factory that cannot
 * serve a validation fails to compile instead of failing late in one test.
 */
export interface ProviderFactory {
  /** Shown in the describe title, e.g. "InMemoryProvider". */
  readonly name: string;
  /** A new provider on a fresh, empty store (PostgreSQL: a new schema). */
  createProvider(): Promise<Provider>;
  /** Releases a provider made by this factory (closes pools, drops its store). */
  destroyProvider(provider: Provider): Promise<void>;
  /** Lock timeout the validations use, ms (duroxide's default is 5000). */
  readonly lockTimeoutMs: number;
  /** How soon a short poll with no work must return, ms (duroxide: 100; remote databases more). */
  readonly shortPollThresholdMs: number;
  /** What the provider offers beyond duroxide's contract; each selects validations of its own. */
  readonly capabilities: ProviderCapabilities;
  /** Replaces every stored history row of `instance` with data that cannot be decoded. */
  corruptInstanceHistory(provider: Provider, instance: string): Promise<void>;
  /** The highest `attempt_count` among the instance's orchestrator-queue messages. */
  getMaxAttemptCount(provider: Provider, instance: string): Promise<number>;
}
