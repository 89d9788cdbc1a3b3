import { isScheduledTask, type ScheduledTask } from './scheduled-task.js';
import { failed, ok, type Outcome, type TaskNode } from './task-node.js';

/** The generator an orchestration body returns. */
export type OrchestrationGenerator = Generator<unknown, unknown, unknown>;

/**
 * An error that fails the orchestration outright, where Rust duroxide panics (for example a
 * detached start with a reserved instance id): user code cannot catch it, and the orchestration
 * fails with `Application/Panicked`.
 * @internal
 */
export class OrchestrationPanic extends Error {
  override readonly name = 'OrchestrationPanic';
}

/**
 * Runs a generator as a pollable task: each poll resumes it with the outcome of the task it
 * yielded, and every newly yielded task is built (scheduling its work) and polled at once, as a
 * Rust `async` body polls a future it starts awaiting. A failed task is thrown into the
 * generator as an `Error` whose message is the failure text.
 * @internal
 */
export class GeneratorNode implements TaskNode {
  private current: TaskNode | undefined;
  private outcome: Outcome | undefined;
  private started = false;

  constructor(
    private readonly generator: OrchestrationGenerator,
    private readonly build: (task: ScheduledTask) => TaskNode,
    /** How an exception escaping the generator becomes the failure text. */
    private readonly describeError: (error: unknown) => string,
  ) {}

  poll(): Outcome | undefined {
    while (this.outcome === undefined) {
      let step: IteratorResult<unknown, unknown>;
      if (!this.started) {
        this.started = true;
        step = this.resume(() => this.generator.next());
      } else {
        const current = this.current?.poll();
        if (!current) return undefined;
        this.current = undefined;
        step = this.resume(() =>
          current.ok
            ? this.generator.next(current.value)
            : this.generator.throw(new Error(current.error)),
        );
      }
      if (this.outcome !== undefined) break;
      if (step.done) {
        this.outcome = ok(step.value);
      } else if (isScheduledTask(step.value)) {
        this.current = this.build(step.value);
      } else {
        this.outcome = failed(
          `orchestration yielded ${describeYielded(step.value)}, which is not a task: yield the result of a ctx.schedule*, ctx.all or ctx.race call`,
        );
      }
    }
    return this.outcome;
  }

  drop(): void {
    this.current?.drop();
  }

  private resume(step: () => IteratorResult<unknown, unknown>): IteratorResult<unknown, unknown> {
    try {
      return step();
    } catch (error) {
      if (error instanceof OrchestrationPanic) throw error;
      this.outcome = failed(this.describeError(error));
      return { done: true, value: undefined };
    }
  }
}

function describeYielded(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' ? 'a function' : `${typeof value} ${String(value)}`;
  }
  return typeof (value as { then?: unknown }).then === 'function' ? 'a promise' : 'an object';
}
