import { compareSemver, type SemverVersion } from '../model/semver.js';

/** The most tags one worker may subscribe to (duroxide's `MAX_WORKER_TAGS`). */
export const MAX_WORKER_TAGS = 5;

/**
 * Which activity tags a worker fetches, as duroxide's `TagFilter`. A tag is set when an activity
 * is scheduled (`.withTag("gpu")`); untagged activities form the default queue.
 */
export type TagFilter =
  /** Only untagged activities (the default). */
  | {
      /** The variant. */
      readonly type: 'DefaultOnly';
    }
  /** Only activities with one of these tags. */
  | {
      /** The variant. */
      readonly type: 'Tags';
      /** The tags taken. */
      readonly tags: readonly string[];
    }
  /** Untagged activities and activities with one of these tags. */
  | {
      /** The variant. */
      readonly type: 'DefaultAnd';
      /** The tags taken besides untagged activities. */
      readonly tags: readonly string[];
    }
  /** Every activity. */
  | {
      /** The variant. */
      readonly type: 'Any';
    }
  /** No activity: an orchestration-only node. */
  | {
      /** The variant. */
      readonly type: 'None';
    };

function tagSet(kind: string, tags: Iterable<string>): readonly string[] {
  const unique = [...new Set(tags)];
  if (unique.length === 0) {
    throw new RangeError(`TagFilter.${kind}() needs at least one tag`);
  }
  if (unique.length > MAX_WORKER_TAGS) {
    throw new RangeError(
      `a worker can subscribe to at most ${MAX_WORKER_TAGS} tags, got ${unique.length}`,
    );
  }
  return unique;
}

/** Constructors for {@link TagFilter}. */
export const TagFilter = {
  /** Untagged activities only (the default). */
  defaultOnly: (): TagFilter => ({ type: 'DefaultOnly' }),
  /** Every activity. */
  any: (): TagFilter => ({ type: 'Any' }),
  /** No activity: an orchestration-only node. */
  none: (): TagFilter => ({ type: 'None' }),
  /**
   * Only activities with one of `tags`.
   * @throws {RangeError} when given no tag or more than {@link MAX_WORKER_TAGS}.
   */
  tags: (tags: Iterable<string>): TagFilter => ({ type: 'Tags', tags: tagSet('tags', tags) }),
  /**
   * Untagged activities and those with one of `tags`.
   * @throws {RangeError} when given no tag or more than {@link MAX_WORKER_TAGS}.
   */
  defaultAnd: (tags: Iterable<string>): TagFilter => ({
    type: 'DefaultAnd',
    tags: tagSet('defaultAnd', tags),
  }),
} as const;

/** Whether an activity with `tag` (`null` when untagged) passes the filter. */
export function tagFilterMatches(filter: TagFilter, tag: string | null | undefined): boolean {
  switch (filter.type) {
    case 'Any':
      return true;
    case 'None':
      return false;
    case 'DefaultOnly':
      return tag == null;
    case 'Tags':
      return tag != null && filter.tags.includes(tag);
    case 'DefaultAnd':
      return tag == null || filter.tags.includes(tag);
  }
}

/** An inclusive range of versions, `min <= v <= max`. */
export interface SemverRange {
  /** The lowest version in the range. */
  readonly min: SemverVersion;
  /** The highest version in the range. */
  readonly max: SemverVersion;
}

/** Whether `version` lies in the range, both ends included. */
export function semverRangeContains(range: SemverRange, version: SemverVersion): boolean {
  return compareSemver(version, range.min) >= 0 && compareSemver(version, range.max) <= 0;
}

/**
 * Which executions an orchestration dispatcher can replay: those pinned to a duroxide version in
 * one of the ranges. An execution with no pinned version is always compatible. With no filter at
 * all, a provider returns any instance.
 */
export interface DispatcherCapabilityFilter {
  /** Only executions pinned to a duroxide version in one of these ranges are fetched. */
  readonly supportedDuroxideVersions: readonly SemverRange[];
}

/** Whether a pinned version passes the filter. */
export function capabilityFilterAccepts(
  filter: DispatcherCapabilityFilter,
  version: SemverVersion,
): boolean {
  return filter.supportedDuroxideVersions.some((range) => semverRangeContains(range, version));
}

/**
 * Session routing for `fetchWorkItem`: with it, a worker also receives activities of sessions it
 * owns and of sessions nobody owns (claiming them); without it, only activities with no session.
 */
export interface SessionFetchConfig {
  /** Owner identity; all slots sharing it count as one owner for session affinity. */
  readonly ownerId: string;
  /** How long a newly claimed session stays owned, in milliseconds. */
  readonly lockTimeoutMs: number;
}
