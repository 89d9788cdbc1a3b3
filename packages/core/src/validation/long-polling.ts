import { expect } from 'vitest';
import { TagFilter } from '../provider/fetch-filters.js';
import type { ProviderFactory } from './provider-factory.js';
import { type ValidationRun, defineValidationGroup } from './validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/long_polling.rs`. duroxide's runners call the
// short-poll or the long-poll cases by hand, as their provider polls; here the factory's
// `capabilities.longPolling` selects them.

const LOCK_TIMEOUT_MS = 30_000;
const POLL_TIMEOUT_MS = 500;

const whenShortPolling = (run: ValidationRun) => ({
  run,
  appliesTo: (factory: ProviderFactory) => !factory.capabilities.longPolling,
});
const whenLongPolling = (run: ValidationRun) => ({
  run,
  appliesTo: (factory: ProviderFactory) => factory.capabilities.longPolling,
});

/** Milliseconds `operation` took, and its result. */
async function timed<T>(operation: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const start = performance.now();
  const result = await operation();
  return { result, elapsedMs: performance.now() - start };
}

/** Fetches return at once (short polling) or wait out their poll timeout, never much longer. */
export const longPolling = defineValidationGroup('long_polling', {
  short_poll_returns_immediately: whenShortPolling(async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const { result, elapsedMs } = await timed(() =>
      provider.fetchOrchestrationItem(LOCK_TIMEOUT_MS, POLL_TIMEOUT_MS, null),
    );
    expect(result, 'Queue should be empty').toBeNull();
    expect(elapsedMs, 'Short polling provider should return immediately').toBeLessThan(
      factory.shortPollThresholdMs,
    );
  }),

  long_poll_waits_for_timeout: whenLongPolling(async ({ newProvider }) => {
    const provider = await newProvider();
    const { result, elapsedMs } = await timed(() =>
      provider.fetchOrchestrationItem(LOCK_TIMEOUT_MS, POLL_TIMEOUT_MS, null),
    );
    expect(result, 'Queue should be empty').toBeNull();
    expect(elapsedMs, 'Long polling provider should wait for timeout').toBeGreaterThanOrEqual(
      POLL_TIMEOUT_MS,
    );
  }),

  fetch_respects_timeout_upper_bound: async ({ newProvider }) => {
    const provider = await newProvider();
    const pollTimeoutMs = 300;
    const toleranceMs = 200;
    const { result, elapsedMs } = await timed(() =>
      provider.fetchOrchestrationItem(LOCK_TIMEOUT_MS, pollTimeoutMs, null),
    );
    expect(result, 'Queue should be empty').toBeNull();
    expect(elapsedMs, 'Provider blocked too long').toBeLessThan(pollTimeoutMs + toleranceMs);
  },

  short_poll_work_item_returns_immediately: whenShortPolling(async ({ newProvider, factory }) => {
    const provider = await newProvider();
    const { result, elapsedMs } = await timed(() =>
      provider.fetchWorkItem(LOCK_TIMEOUT_MS, POLL_TIMEOUT_MS, null, TagFilter.defaultOnly()),
    );
    expect(result, 'Worker queue should be empty').toBeNull();
    expect(elapsedMs, 'Short polling provider should return immediately').toBeLessThan(
      factory.shortPollThresholdMs,
    );
  }),

  long_poll_work_item_waits_for_timeout: whenLongPolling(async ({ newProvider }) => {
    const provider = await newProvider();
    const { result, elapsedMs } = await timed(() =>
      provider.fetchWorkItem(LOCK_TIMEOUT_MS, POLL_TIMEOUT_MS, null, TagFilter.defaultOnly()),
    );
    expect(result, 'Worker queue should be empty').toBeNull();
    expect(elapsedMs, 'Long polling provider should wait for timeout').toBeGreaterThanOrEqual(
      POLL_TIMEOUT_MS,
    );
  }),
});
