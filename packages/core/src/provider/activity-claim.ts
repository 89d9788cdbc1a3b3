import type { WorkItem, WorkItemOf } from '../model/work-item.js';
import { tagFilterMatches, type TagFilter } from './fetch-filters.js';

/**
 * Asks `Provider.ackOrchestrationItems` to write the activities the committed turns schedule
 * already claimed for the caller's own worker, so that a runtime with idle worker room runs the
 * activities its turns schedule without fetching them. Each claimed activity is locked, leased
 * and counted as an attempt exactly as `fetchWorkItems` would leave it. Only activities without a
 * session that `tagFilter` takes are claimed, in the order the turns schedule them, at most
 * `maxItems` over the whole call; the others are written for any worker to fetch.
 */
export interface ActivityClaim {
  /** The most activities to claim over the whole call (at least 1). */
  readonly maxItems: number;
  /** Lease of each claimed activity, in ms. */
  readonly lockTimeoutMs: number;
  /** Which activity tags the caller's worker takes. */
  readonly tagFilter: TagFilter;
}

/**
 * Whether `claim` takes `item`: an activity without a session (its work belongs to the session's
 * owner) whose tag the claim's filter takes. How many a call takes is the caller's count.
 */
export function activityClaimTakes(
  claim: ActivityClaim,
  item: WorkItem,
): item is WorkItemOf<'ActivityExecute'> {
  return (
    item.type === 'ActivityExecute' &&
    item.sessionId === undefined &&
    tagFilterMatches(claim.tagFilter, item.tag)
  );
}
