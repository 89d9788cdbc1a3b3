import { continueAsNewValidations as can } from './continue-as-new.js';
import { legacyQueueRaceDecisionPreserved } from './legacy-decision.js';
import { queueRaceValidations as queues } from './queues.js';
import { transitionDelivery } from './transition.js';
import { defineValidationGroup } from '../validation-group.js';

// Port of duroxide 0.1.32 `src/provider_validation/race_replay.rs`: a real runtime over the
// provider, on seeded histories. Payloads are JSON text here (duro encodes every input and
// result as JSON), where the Rust seeds use raw strings. The held-dequeue shapes of
// `continue_as_new_queue_race_replay` are not ported: duro cannot hold a task (see there).

/** Runtime-level queue cancellation and event-version preservation checks, in Rust order. */
export const raceReplay = defineValidationGroup('race_replay', {
  duplicate_start_preserves_pinned_handler: can.duplicate_start_preserves_pinned_handler,
  continue_as_new_unregistered_backoff: can.continue_as_new_unregistered_backoff,
  continue_as_new_poisoned_successor_is_own_execution:
    can.continue_as_new_poisoned_successor_is_own_execution,
  continue_as_new_duplicate_start: can.continue_as_new_duplicate_start,
  // duroxide runs this one per predecessor stamp; the names are its runners'.
  continue_as_new_transition_delivery_legacy_stamp: transitionDelivery('0.1.30'),
  continue_as_new_transition_delivery_new_stamp: transitionDelivery('0.1.31'),
  queue_race_cancellation_replay: queues.queue_race_cancellation_replay,
  continue_as_new_queue_race_replay: can.continue_as_new_queue_race_replay,
  queue_replay_version_stamp_roundtrip: queues.queue_replay_version_stamp_roundtrip,
  positional_wait_race_replay: queues.positional_wait_race_replay,
  legacy_queue_race_decision_preserved: legacyQueueRaceDecisionPreserved,
});
