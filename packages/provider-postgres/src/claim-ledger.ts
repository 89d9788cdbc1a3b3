import type {
  FetchedOrchestrationItem,
  FetchedWorkItem,
  OrchestrationItemAck,
  SessionFetchConfig,
  TagFilter,
  WorkItem,
} from '@duro/core';
import type { HistoryCache } from './history-cache.js';
import { LockOwners } from './lock-owners.js';
import type { OrchestrationFetch } from './operations/fetch-orchestration-item.js';
import { RecentMap } from './recent-map.js';
import { workScope } from './wakeups/fetch-scopes.js';
import type { WaitScope } from './wakeups/queue-waiters.js';
import type { Wakeups } from './wakeups/wakeups.js';

/** How many sessions' owners (from this provider's own claims) are remembered. */
const MAX_REMEMBERED_SESSIONS = 10_000;

/**
 * What a provider remembers of the claims it handed out, so later calls need no extra read:
 * the instance behind each lock (named in errors), the owner of each session it gave out (woken
 * when a message for that session arrives), and the histories of the turns it ran. The
 * provider tells the ledger of every claim, commit and release; the ledger keeps the
 * history cache and the wake-ups in step with them.
 * @internal
 */
export class ClaimLedger {
  readonly #locks = new LockOwners();
  /** The owner that last claimed each session's work through this provider. */
  readonly #sessionOwners = new RecentMap<string, string>(MAX_REMEMBERED_SESSIONS);
  /** The owners that claimed session work through this provider. */
  readonly #ownersWithSessions = new RecentMap<string, true>(MAX_REMEMBERED_SESSIONS);

  constructor(
    private readonly wakeups: Wakeups,
    /** The histories of the instances this provider ran; `null` when the cache is off. */
    private readonly histories: HistoryCache | null,
  ) {}

  /** The instance a lock token of this provider locks. */
  instanceOf(lockToken: string): string | undefined {
    return this.#locks.instanceOf(lockToken);
  }

  /** The claimed turns among fetch results, each lock noted with its instance. */
  claimedTurns(results: readonly OrchestrationFetch[]): FetchedOrchestrationItem[] {
    const claimed: FetchedOrchestrationItem[] = [];
    for (const result of results) {
      if (result.kind !== 'item') continue;
      this.#locks.remember(result.fetched.lockToken, result.fetched.item.instance);
      claimed.push(result.fetched);
    }
    return claimed;
  }

  /** Notes a claimed activity's instance, and its session's owner so a new message wakes it. */
  claimedActivity(fetched: FetchedWorkItem, session: SessionFetchConfig | null): void {
    if (fetched.item.type !== 'ActivityExecute') return;
    this.#locks.remember(fetched.lockToken, fetched.item.instance);
    const sessionId = fetched.item.sessionId;
    if (sessionId !== undefined && session !== null) {
      this.#sessionOwners.set(sessionId, session.ownerId);
      this.#ownersWithSessions.set(session.ownerId, true);
    }
  }

  /** What follows a committed turn: its history held, its lock forgotten, wake-ups noted. */
  committedTurn(ack: OrchestrationItemAck): void {
    this.histories?.acknowledged(ack.lockToken, ack.executionId, ack.historyDelta);
    this.#locks.forget(ack.lockToken);
    for (const item of ack.orchestratorItems) {
      if (item.type === 'TimerFired') this.wakeups.noteDue('orchestrator', item.fireAtMs);
    }
    for (const item of ack.workerItems) this.wakeSessionOwner(item);
  }

  /** A turn given back uncommitted: its cached history no longer matches the store's. */
  releasedTurn(lockToken: string): void {
    this.histories?.released(lockToken);
    this.#locks.forget(lockToken);
  }

  /** An activity's lock released (acknowledged or abandoned). */
  releasedActivity(lockToken: string): void {
    this.#locks.forget(lockToken);
  }

  /** Which idle fetches a claim or a notification for this worker fetch concerns. */
  workScope(session: SessionFetchConfig | null, tagFilter: TagFilter): WaitScope {
    return workScope(session, tagFilter, (owner) => this.#ownersWithSessions.get(owner) === true);
  }

  /**
   * A notification wakes any one idle fetch, which cannot take a message of a session another
   * owner holds; the owner's own fetch is woken as well when this provider knows it.
   */
  wakeSessionOwner(item: WorkItem): void {
    if (item.type !== 'ActivityExecute' || item.sessionId === undefined) return;
    const owner = this.#sessionOwners.get(item.sessionId);
    if (owner !== undefined) this.wakeups.wakeSessionOwner('worker', owner);
  }
}
