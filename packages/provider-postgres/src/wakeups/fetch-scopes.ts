import type { DispatcherCapabilityFilter, SessionFetchConfig, TagFilter } from '@duro/core';
import type { WaitScope } from './queue-waiters.js';

/**
 * The scope of an orchestration fetch: fetches with the same capability filter can claim the
 * same turns (only the filter's first version range is used, see `fetchOrchestrationItem`).
 * @internal
 */
export function orchestrationScope(filter: DispatcherCapabilityFilter | null): WaitScope {
  const range = filter === null ? 'any' : JSON.stringify(filter.supportedDuroxideVersions[0]);
  return { key: range, sessionOwner: null, sharesLooks: true };
}

/**
 * The scope of a work-item fetch: its tag filter and whether it takes session work at all; the
 * session owner is kept apart, so that the fetches of one runtime (one owner per slot) share a
 * scope and a message of a held session can still wake its owner. An owner that `holdsSessions`
 * may have messages no other owner can see, so it does not share their looks.
 * @internal
 */
export function workScope(
  session: SessionFetchConfig | null,
  tagFilter: TagFilter,
  holdsSessions: (owner: string) => boolean,
): WaitScope {
  return {
    key: `${JSON.stringify(tagFilter)}${session === null ? '' : ' sessions'}`,
    sessionOwner: session?.ownerId ?? null,
    sharesLooks: session === null || !holdsSessions(session.ownerId),
  };
}
