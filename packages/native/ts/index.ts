/**
 * `@duro/native`: the Rust duroxide runtime, duroxide-pg provider and duroxide's SQLite provider
 * inside a Node process, to check duro against duroxide. The functions and wire types come from
 * the Rust crate (see the generated `index.d.ts`); this entry adds the typed wrappers that turn
 * duro objects into what the Rust side calls.
 *
 * ```ts
 * import { listProviderValidations, runRustProviderValidation } from '@duro/native';
 *
 * for (const validation of listProviderValidations()) {
 *   await runRustProviderValidation(validation.id, myProviderFactory);
 * }
 * ```
 *
 * Needs the native build (`pnpm --filter @duro/native build`); importing this entry without it
 * throws.
 *
 * @packageDocumentation
 */
export {
  buildProfile,
  duroxideVersion,
  listProviderValidations,
  connectRustBenchClient,
  migrateWithDuroxidePg,
  roundTripErrorDetails,
  roundTripEvent,
  roundTripWorkItem,
  runProviderValidation,
  runRustScenariosOnPostgres,
  runRustScenariosOnProvider,
  startRustBenchWorker,
  startRustSwarmWorker,
  startRustWorkerOnPostgres,
  startRustWorkerOnSqlite,
  RustBenchClient,
  RustBenchWorker,
  RustSwarmWorker,
  RustWorker,
  type PollingRequirement,
  type RustBenchCompletion,
  type RustBenchWorkerOptions,
  type RustProviderValidation,
  type RustScenarioOptions,
  type RustSwarmWorkerOptions,
  type RustSwarmWorkerStats,
  type ScenarioExecution,
  type ScenarioInstance,
  type ScenarioOutcome,
  type SerdeRoundTrip,
  type WireProvider,
  type WireProviderAdmin,
  type WireProviderError,
  type WireProviderFactory,
} from '../index.js';
export { runRustProviderValidation } from './rust-provider-validation.js';
export { toWireProvider } from './wire-provider.js';
export { toWireProviderAdmin } from './wire-provider-admin.js';
