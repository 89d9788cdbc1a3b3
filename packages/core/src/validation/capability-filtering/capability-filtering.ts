import { capabilityCorruptedHistoryValidations } from './corrupted-history.js';
import { capabilityVersionValidations } from './versions.js';
import { defineValidationGroup } from '../validation-group.js';

/**
 * duroxide `provider_validation::capability_filtering`: `fetchOrchestrationItem` with a
 * `DispatcherCapabilityFilter` returns only instances whose current execution is pinned to a
 * supported duroxide version (stored from ack metadata), filters before decoding history, and
 * reports undecodable history through `historyError`. Split into files by concern; the spread
 * order is the Rust file's order.
 */
export const capabilityFiltering = defineValidationGroup('capability_filtering', {
  ...capabilityVersionValidations,
  ...capabilityCorruptedHistoryValidations,
});
