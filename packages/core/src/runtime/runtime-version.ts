import type { Event, EventKind } from '../model/event.js';
import { parseSemver, type SemverVersion } from '../model/semver.js';

/**
 * The duroxide version whose semantics this runtime implements. Every event it writes is stamped
 * with it, executions are pinned to it, and replay rules that depend on the stamp (the 0.1.31
 * race cancellation cutover) read it back.
 */
export const DUROXIDE_VERSION = '0.1.32';

/** {@link DUROXIDE_VERSION}, parsed. */
export const DUROXIDE_SEMVER: SemverVersion = parseSemver(DUROXIDE_VERSION);

/**
 * A new history event stamped with the current time and {@link DUROXIDE_VERSION}.
 * @internal
 */
export function newEvent(
  eventId: number,
  instanceId: string,
  executionId: number,
  sourceEventId: number | null,
  kind: EventKind,
): Event {
  return {
    eventId,
    sourceEventId,
    instanceId,
    executionId,
    timestampMs: Date.now(),
    duroxideVersion: DUROXIDE_VERSION,
    kind,
  };
}
