import type { RetryPolicy } from './scheduled-task.js';
import { failed, type Outcome, type TaskNode } from './task-node.js';

const SECOND_MS = 1000;

/**
 * The delay before retry `attempt` (1 = after the first failure), in milliseconds, for
 * duroxide-node's backoff names mapped onto duroxide's `BackoffStrategy`.
 */
export function retryDelayMs(backoff: RetryPolicy['backoff'], attempt: number): number {
  switch (backoff) {
    case undefined:
    case 'exponential':
      return Math.min(100 * 2 ** (attempt - 1), 30 * SECOND_MS);
    case 'fixed':
      return SECOND_MS;
    default:
      return Math.min(100 * attempt, 30 * SECOND_MS);
  }
}

/** The error an attempt gets when its per-attempt timeout fires first. */
export const RETRY_TIMEOUT_ERROR = 'timeout: activity timed out';

/** How a retry loop starts its activity attempts and backoff timers. */
export interface RetrySpec {
  readonly policy: RetryPolicy;
  /** Schedules one attempt of the activity. */
  readonly startAttempt: () => TaskNode;
  /** Schedules a timer of `delayMs`. */
  readonly startTimer: (delayMs: number) => TaskNode;
}

/**
 * `scheduleActivityWithRetry` as duroxide's `schedule_activity_with_retry` runs it: each attempt
 * optionally races the activity against the per-attempt timeout (a timeout ends the loop, not
 * retried); a failed attempt waits the backoff on a durable timer (skipped when zero) and tries
 * again until `maxAttempts`; the last error is the result.
 * @internal
 */
export class RetryNode implements TaskNode {
  private attempt = 0;
  private activity: TaskNode | undefined;
  private deadline: TaskNode | undefined;
  private backoffTimer: TaskNode | undefined;
  private outcome: Outcome | undefined;
  private timedOut = false;
  private readonly timeoutMs: number | undefined;

  constructor(private readonly spec: RetrySpec) {
    this.timeoutMs = spec.policy.timeoutMs ?? spec.policy.totalTimeoutMs;
  }

  poll(): Outcome | undefined {
    while (this.outcome === undefined) {
      if (this.backoffTimer) {
        if (!this.backoffTimer.poll()) return undefined;
        this.backoffTimer = undefined;
      }
      if (!this.activity) this.startAttempt();
      const result = this.pollAttempt();
      if (!result) return undefined;
      this.activity = undefined;
      this.deadline = undefined;
      if (result.ok || this.timedOut || this.attempt >= this.spec.policy.maxAttempts) {
        this.outcome = result;
        break;
      }
      const delayMs = retryDelayMs(this.spec.policy.backoff, this.attempt);
      if (delayMs > 0) this.backoffTimer = this.spec.startTimer(delayMs);
    }
    return this.outcome;
  }

  drop(): void {
    this.activity?.drop();
    this.deadline?.drop();
    this.backoffTimer?.drop();
  }

  private startAttempt(): void {
    this.attempt += 1;
    this.activity = this.spec.startAttempt();
    if (this.timeoutMs !== undefined) this.deadline = this.spec.startTimer(this.timeoutMs);
  }

  /** Left-biased race of the attempt against its deadline, as duroxide's `select2`. */
  private pollAttempt(): Outcome | undefined {
    const result = this.activity?.poll();
    if (result) {
      this.deadline?.drop();
      return result;
    }
    if (this.deadline?.poll()) {
      this.activity?.drop();
      this.timedOut = true;
      return failed(RETRY_TIMEOUT_ERROR);
    }
    return undefined;
  }
}
