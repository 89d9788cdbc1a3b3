import { describe } from 'vitest';
import { activityScenarios } from './activity-scenarios.js';
import { concurrencyScenarios } from './concurrency-scenarios.js';
import { eventScenarios } from './event-scenarios.js';
import { lifecycleScenarios } from './lifecycle-scenarios.js';
import { recoveryScenarios } from './recovery-scenarios.js';
import type { RuntimeScenarioProviders } from './scenario-harness.js';
import { sessionScenarios } from './session-scenarios.js';

export type { RuntimeScenarioProviders } from './scenario-harness.js';

/**
 * Registers the runtime's end-to-end scenarios (a real `Runtime` and `Client` over the store)
 * for any provider: activities, the cap on activities at once, sessions, events and queues,
 * children, cancellation, versions, nondeterminism, limits, poison, shutdown and takeover by
 * another runtime. The cap and session scenarios run on default options as well as tuned ones.
 *
 * @example
 * ```ts
 * describeRuntimeScenarios({ createProvider: () => new InMemoryProvider() });
 * ```
 */
export function describeRuntimeScenarios(providers: RuntimeScenarioProviders): void {
  describe('runtime scenarios', () => {
    describe('activities', () => activityScenarios(providers));
    describe('activities at once (workerConcurrency)', () => concurrencyScenarios(providers));
    describe('sessions', () => sessionScenarios(providers));
    describe('events, queues and state', () => eventScenarios(providers));
    describe('orchestration lifecycle', () => lifecycleScenarios(providers));
    describe('shutdown and recovery', () => recoveryScenarios(providers));
  });
}
