import type { ReplayState, ScheduleKind } from './replay-state.js';

/** What a finished task produced: a value, or the error text of a failure. */
export type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** A successful outcome. */
export function ok(value: unknown): Outcome {
  return { ok: true, value };
}

/** A failed outcome carrying the error text the orchestration sees. */
export function failed(error: string): Outcome {
  return { ok: false, error };
}

/**
 * A yielded task being awaited, the counterpart of a Rust future the replay engine polls: `poll`
 * returns the outcome once it is available and `undefined` while pending; `drop` is called when
 * the task is abandoned unfinished (a `race` loser), which cancels the work it scheduled.
 * @internal
 */
export interface TaskNode {
  poll(): Outcome | undefined;
  drop(): void;
}

/** A task bound to one emitted action; dropping it unfinished cancels the action's work. */
export class DurableNode implements TaskNode {
  private outcome: Outcome | undefined;

  constructor(
    private readonly state: ReplayState,
    private readonly token: number,
    private readonly kind: ScheduleKind,
    private readonly read: (token: number) => Outcome | undefined,
  ) {}

  poll(): Outcome | undefined {
    this.outcome ??= this.read(this.token);
    return this.outcome;
  }

  drop(): void {
    if (this.outcome === undefined) this.state.markTokenCancelled(this.token, this.kind);
  }
}

/** A task whose outcome is known when it is created (detached starts, refused child ids). */
export class ReadyNode implements TaskNode {
  constructor(private readonly outcome: Outcome) {}

  poll(): Outcome {
    return this.outcome;
  }

  drop(): void {}
}

/** A task that never finishes: continue-as-new ends the execution instead. */
export class NeverNode implements TaskNode {
  poll(): undefined {
    return undefined;
  }

  drop(): void {}
}

/** Transforms another task's outcome while keeping its cancellation (duroxide's `map`). */
export class MappedNode implements TaskNode {
  private outcome: Outcome | undefined;

  constructor(
    private readonly inner: TaskNode,
    private readonly transform: (outcome: Outcome) => Outcome,
  ) {}

  poll(): Outcome | undefined {
    if (this.outcome) return this.outcome;
    const inner = this.inner.poll();
    if (inner) this.outcome = this.transform(inner);
    return this.outcome;
  }

  drop(): void {
    this.inner.drop();
  }
}

/** Waits for every task, polling all pending ones on each poll (duroxide's `PollAllJoin`). */
export class JoinNode implements TaskNode {
  private readonly outcomes: Array<Outcome | undefined>;
  private remaining: number;

  constructor(private readonly children: readonly TaskNode[]) {
    this.outcomes = children.map(() => undefined);
    this.remaining = children.length;
  }

  poll(): Outcome | undefined {
    this.children.forEach((child, index) => {
      if (this.outcomes[index] !== undefined) return;
      const outcome = child.poll();
      if (outcome) {
        this.outcomes[index] = outcome;
        this.remaining -= 1;
      }
    });
    if (this.remaining > 0) return undefined;
    return ok(
      this.outcomes.map((outcome) =>
        outcome?.ok ? { ok: outcome.value } : { err: outcome?.error ?? '' },
      ),
    );
  }

  drop(): void {
    this.children.forEach((child, index) => {
      if (this.outcomes[index] === undefined) child.drop();
    });
  }
}

/**
 * The first task to finish wins, polled in argument order (left bias, duroxide's `Select2`);
 * the others are dropped at once. As in duroxide-node, a failed winner's error text becomes the
 * value.
 */
export class SelectNode implements TaskNode {
  private outcome: Outcome | undefined;

  constructor(private readonly children: readonly TaskNode[]) {}

  poll(): Outcome | undefined {
    if (this.outcome) return this.outcome;
    for (let index = 0; index < this.children.length; index += 1) {
      const won = this.children[index]?.poll();
      if (!won) continue;
      this.children.forEach((child, other) => {
        if (other !== index) child.drop();
      });
      this.outcome = ok({ index, value: won.ok ? won.value : won.error });
      return this.outcome;
    }
    return undefined;
  }

  drop(): void {
    if (!this.outcome) for (const child of this.children) child.drop();
  }
}
