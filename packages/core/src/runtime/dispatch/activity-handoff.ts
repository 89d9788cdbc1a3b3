import type { WorkItem } from '../../model/work-item.js';
import type { ActivityClaim } from '../../provider/activity-claim.js';
import type { FetchedWorkItem } from '../../provider/orchestration-item.js';

/**
 * Where a runtime's two dispatchers meet: the orchestration side asks its own worker for places
 * for the activities a batch of turns schedules, so that the batch's commit can write them
 * already claimed for that worker (`Provider.ackOrchestrationItems` with an
 * {@link ActivityClaim}), and then hands over what the commit claimed.
 * @internal
 */
export interface ActivityHandoff {
  /**
   * Holds places for the activities among `scheduled` that the worker may take, all of them or
   * none: `null` when there are none, or when they do not all fit in the free room (those that
   * did not fit would be fetched, and a fetch in flight may already count on that room).
   */
  reserve(scheduled: readonly WorkItem[]): HandoffTicket | null;
}

/** Places held for one commit's claim. @internal */
export interface HandoffTicket {
  readonly claim: ActivityClaim;
  /**
   * Runs the activities the commit claimed (none when it failed) in the places held, and gives
   * back the places they did not need. Called once, after the commit has returned or failed.
   */
  adopt(activities: readonly FetchedWorkItem[]): void;
}
