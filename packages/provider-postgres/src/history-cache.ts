import { isDeepStrictEqual } from 'node:util';
import { eventFromWire, eventToWire, isTerminalEvent, type Event } from '@duro/core';
import { RecentMap } from './recent-map.js';

/**
 * The executions whose history a provider holds, as the three arrays
 * `duro_fetch_orchestration_item` takes: instance id, execution id and the id of the last event
 * held, position by position.
 * @internal
 */
export interface HeldHistories {
  readonly instanceIds: string[];
  readonly executionIds: number[];
  readonly lastEventIds: number[];
}

/** One execution's history as stored, up to some event. */
interface HeldHistory {
  readonly executionId: number;
  readonly events: readonly Event[];
}

/** The history a claimed turn started from, until its ack or abandon. */
interface ClaimedTurn extends HeldHistory {
  readonly instance: string;
}

/** How many claimed turns are remembered; a turn never acknowledged is forgotten eventually. */
const MAX_CLAIMED_TURNS = 10_000;

/** An event as the driver parses its stored jsonb. */
function storedJson(event: Event): unknown {
  return JSON.parse(JSON.stringify(eventToWire(event)));
}

/** An event as a fetch decodes it from its stored row, whatever object the runtime built. */
function asStored(event: Event): Event {
  return eventFromWire(storedJson(event));
}

/**
 * The histories of the instances a provider ran most recently, so a fetch asks PostgreSQL only
 * for the events it has not seen. Every held history is a prefix of the stored one: an entry
 * grows only by the events of an acknowledged turn that started from exactly that entry, and
 * history within an execution is append-only. A prefix that is stale (another worker ran turns
 * since) costs nothing extra: the fetch returns every event after it. The server also returns
 * the stored event the prefix ends with, and a held copy that differs from it (an instance
 * deleted and started again under the same id) is not used.
 * @internal
 */
export class HistoryCache {
  readonly #held: RecentMap<string, HeldHistory>;
  readonly #claims = new RecentMap<string, ClaimedTurn>(MAX_CLAIMED_TURNS);

  /** @param capacity how many instances' histories are held; the least recently run go first. */
  constructor(capacity: number) {
    this.#held = new RecentMap(capacity);
  }

  /** What a fetch tells the server it holds. */
  held(): HeldHistories {
    const held: HeldHistories = { instanceIds: [], executionIds: [], lastEventIds: [] };
    for (const [instance, { executionId, events }] of this.#held.entries()) {
      const last = events.at(-1);
      if (last === undefined) continue;
      held.instanceIds.push(instance);
      held.executionIds.push(executionId);
      held.lastEventIds.push(last.eventId);
    }
    return held;
  }

  /**
   * The whole history of a claimed execution: the held events up to `afterEventId`, then `tail`.
   * `null` when what is held no longer reaches that event (forgotten since the fetch was sent)
   * or ends with an event other than `anchor`, the one stored.
   */
  assemble(
    instance: string,
    executionId: number,
    afterEventId: number,
    anchor: unknown,
    tail: readonly Event[],
  ): Event[] | null {
    const held = this.#held.get(instance);
    if (held?.executionId !== executionId) return null;
    const end = held.events.findLastIndex((event) => event.eventId === afterEventId) + 1;
    if (end === 0) return null;
    const last = held.events[end - 1] as Event;
    if (!isDeepStrictEqual(storedJson(last), anchor)) return null;
    return [...held.events.slice(0, end), ...tail];
  }

  /** Notes the history a turn was claimed with, under its lock token. */
  claimed(
    lockToken: string,
    instance: string,
    executionId: number,
    events: readonly Event[],
  ): void {
    this.#held.set(instance, { executionId, events });
    this.#claims.set(lockToken, { instance, executionId, events });
  }

  /**
   * Extends the held history by the events an acknowledged turn appended, unless another claim
   * has replaced it since. A turn that ended its execution drops the instance.
   */
  acknowledged(lockToken: string, executionId: number, delta: readonly Event[]): void {
    const turn = this.#claims.get(lockToken);
    this.#claims.delete(lockToken);
    if (turn === undefined || this.#held.get(turn.instance)?.events !== turn.events) return;
    if (executionId !== turn.executionId || delta.some(isTerminalEvent)) {
      this.#held.delete(turn.instance);
      return;
    }
    this.#held.set(turn.instance, {
      executionId,
      events: [...turn.events, ...delta.map(asStored)],
    });
  }

  /** Forgets an abandoned turn; what it was claimed with stays held. */
  released(lockToken: string): void {
    this.#claims.delete(lockToken);
  }
}
