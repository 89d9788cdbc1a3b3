import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchedWorkItem, Provider } from '@duro/core';
import { providerWithOverrides } from '../observe/provider-with-overrides.js';

/**
 * Environment variable that builds a deliberate defect into every worker process, for the tests
 * that prove the swarm check fails on it. Only the worker process reads it; no flag or preset
 * sets it, so a run never has it unless its environment does.
 */
export const TEST_FAULT_ENV = 'PILOT_E2E_TEST_FAULT';

/**
 * The defects a test can build in:
 * - `drop-session-claim`: the runtime loses the first session-bound activity it claims (the
 *   claim is made and recorded, but the runtime never sees it, so it is neither run nor
 *   acknowledged and waits for its lease to run out), as a runtime that drops a claim would;
 * - `expired-lease`: the provider hands out its first activity claim only once its lease has
 *   run out, as a provider that hands out an expired lease would.
 */
export type TestFault = 'drop-session-claim' | 'expired-lease';

const TEST_FAULTS: readonly TestFault[] = ['drop-session-claim', 'expired-lease'];

/**
 * The defect `environment` asks for, or `null`.
 * @throws {Error} naming the variable when it holds something else.
 */
export function testFaultOf(environment: NodeJS.ProcessEnv): TestFault | null {
  const value = environment[TEST_FAULT_ENV];
  if (value === undefined || value === '') return null;
  if (!(TEST_FAULTS as readonly string[]).includes(value)) {
    throw new Error(`${TEST_FAULT_ENV} must be one of ${TEST_FAULTS.join(', ')}, got ${value}`);
  }
  return value as TestFault;
}

/** `provider` with its activity fetches passed through `adjust`. */
function adjustingWorkFetches(
  provider: Provider,
  adjust: (batch: FetchedWorkItem[], lockTimeoutMs: number) => Promise<FetchedWorkItem[]>,
): Provider {
  const fetchWorkItems = provider.fetchWorkItems?.bind(provider);
  const overrides: Partial<Provider> = {
    async fetchWorkItem(lockTimeoutMs, ...rest) {
      const fetched = await provider.fetchWorkItem(lockTimeoutMs, ...rest);
      const [kept] = await adjust(fetched === null ? [] : [fetched], lockTimeoutMs);
      return kept ?? null;
    },
    ...(fetchWorkItems !== undefined && {
      async fetchWorkItems(lockTimeoutMs, ...rest) {
        return adjust(await fetchWorkItems(lockTimeoutMs, ...rest), lockTimeoutMs);
      },
    }),
  };
  return providerWithOverrides(provider, overrides);
}

/** The `drop-session-claim` defect, wrapped around the observed provider. */
export function dropFirstSessionClaim(provider: Provider): Provider {
  let dropped = false;
  return adjustingWorkFetches(provider, (batch) => {
    const index = batch.findIndex(
      ({ item }) => item.type === 'ActivityExecute' && item.sessionId !== undefined,
    );
    if (dropped || index < 0) return Promise.resolve(batch);
    dropped = true;
    console.error(`test fault: dropping the claim of ${JSON.stringify(batch[index]?.item)}`);
    return Promise.resolve(batch.filter((_, position) => position !== index));
  });
}

/** The `expired-lease` defect, wrapped around the provider the observer watches. */
export function expireFirstClaim(provider: Provider): Provider {
  let expired = false;
  return adjustingWorkFetches(provider, async (batch, lockTimeoutMs) => {
    if (expired || batch.length === 0) return batch;
    expired = true;
    console.error(`test fault: handing out ${batch.length} claim(s) after their lease ran out`);
    await sleep(lockTimeoutMs + 250);
    return batch;
  });
}
