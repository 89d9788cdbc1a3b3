import { Client } from '../../client/client.js';
import type { Provider } from '../../provider/provider.js';
import { Runtime } from '../../runtime/runtime.js';
import type { RuntimeOptions } from '../../runtime/runtime-options.js';

/** How runtime scenarios get a fresh, empty store and give it back. */
export interface RuntimeScenarioProviders {
  /** A provider on a fresh, empty store. */
  readonly createProvider: () => Promise<Provider> | Provider;
  /** Releases a provider made by `createProvider`. @default does nothing */
  readonly destroyProvider?: (provider: Provider) => Promise<void> | void;
}

/** What a scenario body works with. */
export interface ScenarioEnvironment {
  readonly provider: Provider;
  readonly client: Client;
  /** Starts another runtime on the same store (shut down with the scenario). */
  readonly startRuntime: (
    configure: (runtime: Runtime) => void,
    options?: RuntimeOptions,
  ) => Promise<Runtime>;
}

const quiet = (): void => undefined;

/** Every option at its default, but no log output: what a user gets who sets nothing. */
export const DEFAULT_OPTIONS: RuntimeOptions = {
  logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
};

/** Options scenarios run with: quick polling, short activity locks, no log output. */
export const SCENARIO_OPTIONS: RuntimeOptions = {
  ...DEFAULT_OPTIONS,
  dispatcherPollIntervalMs: 10,
  dispatcherLongPollTimeoutMs: 200,
  workerLockTimeoutMs: 1_000,
  orchestrationConcurrency: 2,
  workerConcurrency: 2,
};

/**
 * The option sets that the session and concurrency scenarios run with: what a user who sets
 * nothing gets, and tuned options for each way of fetching activities.
 */
export const OPTION_SETS: readonly (readonly [name: string, options: RuntimeOptions])[] = [
  ['on default options', DEFAULT_OPTIONS],
  [
    'with quick polls and batch fetches of two',
    { ...SCENARIO_OPTIONS, workerConcurrency: 3, workerBatchSize: 2 },
  ],
  [
    'with quick polls and one activity per fetch',
    { ...SCENARIO_OPTIONS, workerConcurrency: 3, workerBatchSize: 1 },
  ],
];

/**
 * Runs `body` against a fresh store and one started runtime, then shuts everything down. Every
 * runtime of the scenario runs with `base` and then `options` over it.
 */
export async function withRuntime(
  providers: RuntimeScenarioProviders,
  configure: (runtime: Runtime) => void,
  body: (env: ScenarioEnvironment) => Promise<void>,
  options: RuntimeOptions = {},
  base: RuntimeOptions = SCENARIO_OPTIONS,
): Promise<void> {
  const provider = await providers.createProvider();
  const runtimes: Runtime[] = [];
  const env: ScenarioEnvironment = {
    provider,
    client: new Client(provider),
    startRuntime: async (setup, extra = {}) => {
      const runtime = new Runtime(provider, { ...base, ...extra });
      setup(runtime);
      await runtime.start();
      runtimes.push(runtime);
      return runtime;
    },
  };
  try {
    await env.startRuntime(configure, options);
    await body(env);
  } finally {
    await Promise.all(runtimes.map((runtime) => runtime.shutdown(2_000)));
    await providers.destroyProvider?.(provider);
  }
}

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `check` returns true, polling; rejects with `what` after `timeoutMs`. */
export async function eventually(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await pause(10);
  }
}
