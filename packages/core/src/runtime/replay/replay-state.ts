import type { Action } from './action.js';

/** What kind of work a dropped task had scheduled, for cancelling it (duroxide's `ScheduleKind`). */
export type ScheduleKind = 'activity' | 'timer' | 'external' | 'queue' | 'subOrchestration';

/** A completion delivered to a scheduled task. */
export type CompletionResult =
  | { readonly kind: 'activity'; readonly ok: boolean; readonly value: string }
  | { readonly kind: 'subOrchestration'; readonly ok: boolean; readonly value: string }
  | { readonly kind: 'timer' };

/**
 * Which race-cancellation rules an execution replays with, fixed by the duroxide version stamped
 * on its `OrchestrationStarted`: `v0131` (0.1.31 and later) cancels a dropped dequeue or wait at
 * once; `legacy` keeps the older timing so histories written before replay unchanged.
 */
export type RaceCancellationPolicy = 'legacy' | 'v0131';

interface ExternalSubscription {
  readonly name: string;
  readonly index: number;
}

/**
 * The per-turn state the replay engine and the running orchestration share, as duroxide's
 * `CtxInner`: action tokens and their bindings to history, delivered results, positional and
 * queue subscriptions, and dropped (cancelled) tasks. Indexed so a turn over a long history
 * stays linear.
 * @internal
 */
export class ReplayState {
  isReplaying = true;
  policy: RaceCancellationPolicy = 'legacy';
  /** Custom status as the orchestration sees it (`null` when cleared or never set). */
  customStatus: string | null = null;
  readonly kvValues = new Map<string, string>();
  /** Known `last_updated_at_ms` per key; keys written this turn are never prunable. */
  readonly kvUpdatedAt = new Map<string, number>();

  private nextToken = 0;
  private emitted: Array<[number, Action]> = [];
  private readonly results = new Map<number, CompletionResult>();
  private readonly tokenToSchedule = new Map<number, number>();
  private readonly scheduleToToken = new Map<number, number>();

  private readonly externalSubs = new Map<number, ExternalSubscription>();
  private readonly externalArrivals = new Map<string, string[]>();
  private readonly externalNextIndex = new Map<string, number>();
  private readonly externalActive = new Map<string, number>();
  private readonly externalCancelled = new Set<number>();
  private readonly externalCancelledIndexes = new Map<string, number[]>();

  private readonly queueSubs = new Map<string, number[]>();
  private readonly queueSubName = new Map<number, string>();
  private readonly queueArrivals = new Map<string, string[]>();
  private readonly queueArrivalOrder: Array<readonly [string, number]> = [];
  private readonly queueConsumed = new Map<string, Set<number>>();
  private readonly queueCancelled = new Set<number>();
  private readonly queueResolved = new Set<number>();

  private readonly subOrchestrationInstances = new Map<number, string>();
  private readonly cancelledTokens = new Map<number, ScheduleKind>();

  // ----- Actions and tokens -----

  /** Records an action and returns the token that correlates it with history. */
  emit(action: Action): number {
    this.nextToken += 1;
    this.emitted.push([this.nextToken, action]);
    return this.nextToken;
  }

  /** Takes a token number without emitting, so numbering matches a path that emits. */
  reserveToken(): number {
    this.nextToken += 1;
    return this.nextToken;
  }

  /** Takes the actions emitted since the last drain, in emission order. */
  drainEmitted(): Array<[number, Action]> {
    const drained = this.emitted;
    this.emitted = [];
    return drained;
  }

  bindToken(token: number, scheduleId: number): void {
    this.tokenToSchedule.set(token, scheduleId);
    this.scheduleToToken.set(scheduleId, token);
    if (this.policy === 'v0131' && this.cancelledTokens.get(token) === 'queue') {
      this.markQueueSubscriptionCancelled(scheduleId);
    }
  }

  boundScheduleId(token: number): number | undefined {
    return this.tokenToSchedule.get(token);
  }

  deliverResult(scheduleId: number, result: CompletionResult): void {
    const token = this.scheduleToToken.get(scheduleId);
    if (token !== undefined) this.results.set(token, result);
  }

  result(token: number): CompletionResult | undefined {
    return this.results.get(token);
  }

  // ----- Positional external events -----

  bindExternalSubscription(scheduleId: number, name: string): void {
    const index = this.externalNextIndex.get(name) ?? 0;
    this.externalNextIndex.set(name, index + 1);
    this.externalSubs.set(scheduleId, { name, index });
    if (this.externalCancelled.has(scheduleId)) {
      this.recordCancelledIndex(name, index);
    } else {
      this.externalActive.set(name, (this.externalActive.get(name) ?? 0) + 1);
    }
  }

  /** Whether a bound, open wait for `name` has no arrival yet (an event with none is dropped). */
  hasPendingSubscriptionSlot(name: string): boolean {
    const delivered = this.externalArrivals.get(name)?.length ?? 0;
    return (this.externalActive.get(name) ?? 0) > delivered;
  }

  deliverExternalEvent(name: string, data: string): void {
    const arrivals = this.externalArrivals.get(name);
    if (arrivals) arrivals.push(data);
    else this.externalArrivals.set(name, [data]);
  }

  externalEvent(scheduleId: number): string | undefined {
    const sub = this.externalSubs.get(scheduleId);
    const index = this.externalArrivalIndex(scheduleId);
    if (!sub || index === undefined) return undefined;
    return this.externalArrivals.get(sub.name)?.[index];
  }

  /** The arrival a wait answers: its position among the waits of its name not cancelled. */
  private externalArrivalIndex(scheduleId: number): number | undefined {
    const sub = this.externalSubs.get(scheduleId);
    if (!sub || this.externalCancelled.has(scheduleId)) return undefined;
    const cancelled = this.externalCancelledIndexes.get(sub.name) ?? [];
    return sub.index - cancelled.filter((index) => index < sub.index).length;
  }

  markExternalSubscriptionCancelled(scheduleId: number): void {
    if (this.externalCancelled.has(scheduleId)) return;
    const sub = this.externalSubs.get(scheduleId);
    if (sub) {
      // 0.1.31: a dropped wait's already-delivered value is discarded, not shifted onto the
      // next wait of the same name.
      const index = this.externalArrivalIndex(scheduleId);
      const arrivals = this.externalArrivals.get(sub.name);
      if (this.policy === 'v0131' && index !== undefined && arrivals && index < arrivals.length) {
        arrivals.splice(index, 1);
      }
      this.externalActive.set(sub.name, (this.externalActive.get(sub.name) ?? 1) - 1);
      this.recordCancelledIndex(sub.name, sub.index);
    }
    this.externalCancelled.add(scheduleId);
  }

  private recordCancelledIndex(name: string, index: number): void {
    const cancelled = this.externalCancelledIndexes.get(name);
    if (cancelled) cancelled.push(index);
    else this.externalCancelledIndexes.set(name, [index]);
  }

  // ----- Queues (FIFO mailboxes) -----

  bindQueueSubscription(scheduleId: number, name: string): void {
    const subs = this.queueSubs.get(name);
    if (subs) subs.push(scheduleId);
    else this.queueSubs.set(name, [scheduleId]);
    this.queueSubName.set(scheduleId, name);
  }

  deliverQueueMessage(name: string, data: string): void {
    let arrivals = this.queueArrivals.get(name);
    if (!arrivals) {
      arrivals = [];
      this.queueArrivals.set(name, arrivals);
    }
    this.queueArrivalOrder.push([name, arrivals.length]);
    arrivals.push(data);
  }

  markQueueSubscriptionCancelled(scheduleId: number): void {
    this.queueCancelled.add(scheduleId);
  }

  /**
   * The message a dequeue receives, consuming it: its arrival index is the number of earlier,
   * not cancelled dequeues of the same queue. Held (unresolved) dequeues keep their position.
   */
  takeQueueMessage(scheduleId: number): string | undefined {
    const name = this.queueSubName.get(scheduleId);
    if (name === undefined) return undefined;
    if (this.queueResolved.has(scheduleId) || this.queueCancelled.has(scheduleId)) return undefined;
    let index = 0;
    for (const sub of this.queueSubs.get(name) ?? []) {
      if (sub === scheduleId) break;
      if (!this.queueCancelled.has(sub)) index += 1;
    }
    const arrivals = this.queueArrivals.get(name);
    if (!arrivals || index >= arrivals.length) return undefined;
    this.queueResolved.add(scheduleId);
    let consumed = this.queueConsumed.get(name);
    if (!consumed) {
      consumed = new Set();
      this.queueConsumed.set(name, consumed);
    }
    consumed.add(index);
    return arrivals[index];
  }

  /** Queue arrivals no dequeue has read, in arrival order across queues (0.1.31 carry-forward). */
  unconsumedQueueArrivals(): Array<[string, string]> {
    const unread: Array<[string, string]> = [];
    for (const [name, index] of this.queueArrivalOrder) {
      if (this.queueConsumed.get(name)?.has(index)) continue;
      const data = this.queueArrivals.get(name)?.[index];
      if (data !== undefined) unread.push([name, data]);
    }
    return unread;
  }

  // ----- Sub-orchestrations -----

  bindSubOrchestrationInstance(token: number, instance: string): void {
    this.subOrchestrationInstances.set(token, instance);
  }

  // ----- Dropped tasks -----

  /** Records that a task was dropped before it finished (duroxide's `DurableFuture` drop). */
  markTokenCancelled(token: number, kind: ScheduleKind): void {
    if (this.policy === 'v0131') {
      // 0.1.31: a dropped dequeue or wait stops matching before the next poll, not only when
      // its breadcrumb is replayed.
      const scheduleId = this.tokenToSchedule.get(token);
      if (scheduleId !== undefined && kind === 'queue')
        this.markQueueSubscriptionCancelled(scheduleId);
      if (scheduleId !== undefined && kind === 'external') {
        this.markExternalSubscriptionCancelled(scheduleId);
      }
    }
    this.cancelledTokens.set(token, kind);
  }

  /** Schedule ids of dropped tasks of `kind` that were bound to history, ascending. */
  cancelledScheduleIds(kind: Exclude<ScheduleKind, 'timer' | 'subOrchestration'>): number[] {
    const ids: number[] = [];
    for (const [token, tokenKind] of this.cancelledTokens) {
      const scheduleId = this.tokenToSchedule.get(token);
      if (tokenKind === kind && scheduleId !== undefined) ids.push(scheduleId);
    }
    return ids.sort((a, b) => a - b);
  }

  /** Dropped children that were bound to history: `[scheduleId, child id suffix]`, ascending. */
  cancelledSubOrchestrations(): Array<[number, string]> {
    const cancels: Array<[number, string]> = [];
    for (const [token, kind] of this.cancelledTokens) {
      const scheduleId = this.tokenToSchedule.get(token);
      const instance = this.subOrchestrationInstances.get(token);
      if (kind === 'subOrchestration' && scheduleId !== undefined && instance !== undefined) {
        cancels.push([scheduleId, instance]);
      }
    }
    return cancels.sort((a, b) => a[0] - b[0]);
  }

  clearCancelledTokens(): void {
    this.cancelledTokens.clear();
  }
}
