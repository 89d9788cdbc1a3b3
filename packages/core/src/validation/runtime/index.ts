import { describe } from 'vitest';
import { activityScenarios } from './activity-scenarios.js';
import { eventScenarios } from './event-scenarios.js';
import { lifecycleScenarios } from './lifecycle-scenarios.js';
import { recoveryScenarios } from './recovery-scenarios.js';
import type { RuntimeScenarioProviders } from './scenario-harness.js';

export type { RuntimeScenarioProviders } from './scenario-harness.js';

/**
 * Registers the runtime's end-to-end scenarios (a real `Runtime` and `Client` over the store)
 * for any provider: activities, events and queues, children, cancellation, versions,
 * nondeterminism, limits, poison, shutdown and takeover by another runtime.
 *
 * @example
 * ```ts
 * describeRuntimeScenarios({ createProvider: () => new InMemoryProvider() });
 * ```
 */
export function describeRuntimeScenarios(providers: RuntimeScenarioProviders): void {
  describe('runtime scenarios', () => {
    describe('activities', () => activityScenarios(providers));
    describe('events, queues and state', () => eventScenarios(providers));
    describe('orchestration lifecycle', () => lifecycleScenarios(providers));
    describe('shutdown and recovery', () => recoveryScenarios(providers));
  });
}
