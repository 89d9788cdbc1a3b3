/**
 * `@duro/core/validation`: duroxide's provider validation suite, ported module for module and
 * test for test, with duro's own groups for what a provider offers beyond duroxide's contract. A
 * provider package declares its capabilities once and runs everything that applies with one
 * call:
 *
 * ```ts
 * import { describeProviderValidations } from '@duro/core/validation';
 *
 * describeProviderValidations({
 *   name: 'MyProvider',
 *   createProvider: () => MyProvider.open(freshStore()),
 *   destroyProvider: (provider) => (provider as MyProvider).close(),
 *   lockTimeoutMs: 5_000,
 *   shortPollThresholdMs: 100,
 *   capabilities: {
 *     longPolling: false,
 *     batchedWorkerQueue: false,
 *     batchedOrchestrationQueue: false,
 *     activityClaims: false,
 *   },
 *   corruptInstanceHistory: (provider, instance) => corruptRows(provider, instance),
 *   getMaxAttemptCount: (provider, instance) => maxAttempts(provider, instance),
 * });
 * ```
 *
 * Needs vitest (an optional peer dependency of `@duro/core`).
 *
 * @module @duro/core/validation
 */
import { describe, it } from 'vitest';
import { atomicity } from './atomicity.js';
import { bulkDeletion } from './bulk-deletion.js';
import { cancellation } from './cancellation.js';
import { activityClaims } from './duro-extensions/activity-claims.js';
import { batchedOrchestrationQueue } from './duro-extensions/batched-orchestration-queue.js';
import { batchedWorkerQueue } from './duro-extensions/batched-worker-queue.js';
import { capabilityFiltering } from './capability-filtering/capability-filtering.js';
import { customStatus } from './custom-status.js';
import { deletion } from './deletion/deletion.js';
import { errorHandling } from './error-handling.js';
import { instanceCreation } from './instance-creation.js';
import { instanceLocking } from './instance-locking.js';
import { kvStore } from './kv-store/kv-store.js';
import { lockExpiration } from './lock-expiration.js';
import { longPolling } from './long-polling.js';
import { management } from './management.js';
import { multiExecution } from './multi-execution.js';
import { poisonMessage } from './poison-message.js';
import type { ProviderFactory } from './provider-factory.js';
import { prune } from './prune.js';
import { queueSemantics } from './queue-semantics.js';
import { raceReplay } from './race-replay/race-replay.js';
import { sessions } from './sessions/sessions.js';
import { tagFiltering } from './tag-filtering.js';
import {
  runValidation,
  validationAppliesTo,
  type Validation,
  type ValidationGroup,
} from './validation-group.js';

export { activityClaims } from './duro-extensions/activity-claims.js';
export { batchedOrchestrationQueue } from './duro-extensions/batched-orchestration-queue.js';
export { batchedWorkerQueue } from './duro-extensions/batched-worker-queue.js';
export type { ProviderCapabilities, ProviderFactory } from './provider-factory.js';
export { describeRuntimeScenarios, type RuntimeScenarioProviders } from './runtime/index.js';
export {
  defineValidationGroup,
  runValidation,
  validationAppliesTo,
  validationRun,
  type Validation,
  type ValidationContext,
  type ValidationGroup,
  type ValidationRun,
} from './validation-group.js';

/**
 * Every group: duroxide's, in the order of its `provider_validation/mod.rs`, then duro's own,
 * each of which applies only to a provider with the capability it `requires`.
 */
export const providerValidationGroups: readonly ValidationGroup[] = Object.freeze([
  atomicity,
  bulkDeletion,
  cancellation,
  capabilityFiltering,
  customStatus,
  deletion,
  errorHandling,
  instanceCreation,
  instanceLocking,
  kvStore,
  lockExpiration,
  longPolling,
  management,
  multiExecution,
  poisonMessage,
  prune,
  queueSemantics,
  raceReplay,
  sessions,
  tagFiltering,
  batchedWorkerQueue,
  batchedOrchestrationQueue,
  activityClaims,
]);

/** Options of {@link describeProviderValidations}. */
export interface ProviderValidationOptions {
  /**
   * Validations to skip, by `group.name` + "." + validation name, each with the reason. Printed,
   * and shown as skipped by vitest.
   * @default {} (run everything that applies)
   */
  readonly skip?: Readonly<Record<string, string>>;
}

/**
 * Time one validation may take: the longest ones wait out a few lock timeouts in real time.
 * Overrides a shorter vitest `testTimeout` of the calling package.
 */
function validationTimeoutMs(factory: ProviderFactory): number {
  return 60_000 + 10 * factory.lockTimeoutMs;
}

function checkSkipKeys(skip: Readonly<Record<string, string>>): void {
  const known = new Set(
    providerValidationGroups.flatMap((group) =>
      Object.keys(group.validations).map((name) => `${group.name}.${name}`),
    ),
  );
  for (const key of Object.keys(skip)) {
    if (!known.has(key)) {
      throw new TypeError(`skip names an unknown validation "${key}" (expected "group.name")`);
    }
  }
}

/**
 * Registers every validation group that applies to the factory's provider in vitest:
 * describe(factory name) → describe(group.name) → it(validation name). A group of duro's that
 * `requires` a capability the factory does not declare is left out, and so is a validation whose
 * `appliesTo` rejects the factory (duroxide's runners leave those out by hand). Prints how many
 * validations were registered, the groups left out and each skipped validation with its reason.
 * @throws {TypeError} when `options.skip` names a validation that does not exist.
 */
export function describeProviderValidations(
  factory: ProviderFactory,
  options: ProviderValidationOptions = {},
): void {
  const skip = options.skip ?? {};
  checkSkipKeys(skip);
  const timeoutMs = validationTimeoutMs(factory);
  const applies = (group: ValidationGroup): boolean =>
    group.requires === null || factory.capabilities[group.requires];
  const plan = providerValidationGroups.filter(applies).map((group) => ({
    group,
    entries: Object.entries<Validation>(group.validations)
      .filter(([, validation]) => validationAppliesTo(validation, factory))
      .map(([name, validation]) => ({
        name,
        validation,
        skipReason: skip[`${group.name}.${name}`],
      })),
  }));
  const entries = plan.flatMap(({ group, entries }) =>
    entries.map((entry) => ({ key: `${group.name}.${entry.name}`, ...entry })),
  );
  const skipped = entries.filter((entry) => entry.skipReason !== undefined);
  console.info(
    `${factory.name}: ${entries.length - skipped.length} provider validations registered, ` +
      `${skipped.length} skipped`,
  );
  for (const group of providerValidationGroups.filter((group) => !applies(group))) {
    console.info(`  left out ${group.name}: the provider does not declare ${group.requires}`);
  }
  for (const entry of skipped) console.info(`  skipped ${entry.key}: ${entry.skipReason}`);

  describe(`provider validations: ${factory.name}`, () => {
    for (const { group, entries } of plan) {
      describe(group.name, () => {
        for (const { name, validation, skipReason } of entries) {
          if (skipReason !== undefined) {
            it.skip(name, () => undefined);
          } else {
            it(name, () => runValidation(factory, validation), timeoutMs);
          }
        }
      });
    }
  });
}
