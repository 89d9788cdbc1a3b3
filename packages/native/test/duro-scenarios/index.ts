import type { Runtime } from '@duro/core';
import { registerActivities, registerActivityScenarios } from './activities.js';
import { registerContinueAsNewScenarios } from './continue-as-new.js';
import { registerEventScenarios } from './events.js';
import { registerRaceScenarios } from './races.js';
import { registerStateAndFailureScenarios } from './state.js';
import { registerSubOrchestrationScenarios } from './sub-orchestrations.js';

/**
 * The duro side of the scenario catalogue: one orchestration per scenario, under the name the
 * catalogue gives (the Rust side is `src/rust_runtime/scenarios/`).
 */
export function registerDuroScenarios(runtime: Runtime): void {
  registerActivities(runtime);
  registerActivityScenarios(runtime);
  registerRaceScenarios(runtime);
  registerEventScenarios(runtime);
  registerSubOrchestrationScenarios(runtime);
  registerContinueAsNewScenarios(runtime);
  registerStateAndFailureScenarios(runtime);
}
