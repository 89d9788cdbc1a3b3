/** Which provider queue a record is about. */
export type AuditQueue = 'orchestrator' | 'worker';

/**
 * How a claim reached the runtime: a fetch of one item (`fetchOrchestrationItem`,
 * `fetchWorkItem`), a batch fetch (`fetchOrchestrationItems`, `fetchWorkItems`), or activities a
 * turn commit wrote already claimed for the committing runtime (`ackOrchestrationItems` with a
 * claim: the hand-off).
 */
export type ClaimPath = 'fetch' | 'batch' | 'handoff';

/** Every claim path, in the order reports list them. */
export const CLAIM_PATHS: readonly ClaimPath[] = ['fetch', 'batch', 'handoff'];

/**
 * One claimed item (one lock token) as the observer saw it when the claim returned, with what
 * the store said about it at that moment. Written before the runtime sees the item.
 */
export interface ClaimRecord {
  readonly schema: string;
  readonly worker: string;
  /** Process id of the worker's life that claimed it. */
  readonly life: number;
  readonly queue: AuditQueue;
  readonly path: ClaimPath;
  readonly instance: string;
  /** The activity's session, if it is bound to one. */
  readonly session: string | null;
  /** Identifies the message (or the turn's messages, comma-separated) across workers and attempts. */
  readonly messageKey: string;
  readonly lockToken: string;
  readonly attempt: number;
  /** When the call that claimed it started, epoch ms. */
  readonly fetchStartedAtMs: number;
  /** When the claim returned to the observer, epoch ms: the moment the lease is judged at. */
  readonly claimedAtMs: number;
  /** The lease's end in the store, epoch ms; `null` when no row held the token any more. */
  readonly lockedUntilMs: number | null;
  /**
   * The lease the claim asked for, ms. The provider starts a lease at its own clock's reading
   * as it sends the claim statement, so `lockedUntilMs - lockTimeoutMs` is when the claim was
   * sent (see `claimSentAtMs`).
   */
  readonly lockTimeoutMs: number;
  /**
   * When the claimed work could first have been claimed as far as its own rows tell, epoch ms:
   * the latest of `visible_at` and `created_at` of the activity, or the earliest such time of
   * the turn's messages. `null` when the rows were gone.
   */
  readonly runnableAtMs: number | null;
  /**
   * Whether the claimed work was still queued when its lease was read: `false` when a turn had
   * cancelled the activity meanwhile, deleting its row (so a missing lock is no expired lease).
   */
  readonly stillQueued: boolean;
  /** When the observer had read the store, epoch ms (a freeze in between excuses the read). */
  readonly observedAtMs: number;
}

/** What became of a held lock. */
export type LockEventKind =
  /** The acknowledgement committed. */
  | 'ack'
  /** The acknowledgement failed because the lock token was no longer valid. */
  | 'ack-lost'
  /** The acknowledgement failed otherwise (a dropped connection, a server restart). */
  | 'ack-error'
  /** The runtime gave the lock back. */
  | 'abandon'
  /** The runtime tried to give the lock back and failed: it lapses with its lease. */
  | 'abandon-error'
  /** The runtime extended the lease. */
  | 'renew';

/** One thing a worker did with a lock it held. */
export interface LockEvent {
  readonly worker: string;
  readonly life: number;
  readonly queue: AuditQueue;
  readonly lockToken: string;
  readonly kind: LockEventKind;
  /** When the call returned, epoch ms. */
  readonly atMs: number;
  /** The lease's new end for `renew` (at most this late), epoch ms; else `null`. */
  readonly lockedUntilMs: number | null;
  /** The error of a failed acknowledgement. */
  readonly detail: string;
}

/**
 * One fetch that returned normally (with work or without): from its start until it returned,
 * the worker had room for `maxItems` more items of `queue` and waited for work.
 */
export interface FetchWait {
  readonly schema: string;
  readonly worker: string;
  readonly life: number;
  readonly queue: AuditQueue;
  readonly fromMs: number;
  readonly toMs: number;
  readonly maxItems: number;
  /** Whether the fetch could take session-bound activities (it routed sessions). */
  readonly sessionRouting: boolean;
  /** Items it returned. */
  readonly returned: number;
}

/** Everything the workers recorded in a run. */
export interface AuditTrail {
  readonly claims: readonly ClaimRecord[];
  readonly lockEvents: readonly LockEvent[];
  readonly waits: readonly FetchWait[];
}
