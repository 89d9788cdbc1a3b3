import type { WorkItem } from '../../model/work-item.js';
import type { WorkItemAck } from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { sendTogether, type QueuedAck } from './batch-call.js';

/** One running activity, as the acknowledger follows it. @internal */
export interface TrackedActivity {
  /**
   * Acknowledges the activity (it then counts as finished): resolves once the ack committed,
   * rejects when it did not.
   */
  acknowledge(lockToken: string, completion: WorkItem | null): Promise<void>;
  /** Marks the activity finished whether or not it was acknowledged (call it in any case). */
  finish(): void;
}

interface PendingAck extends QueuedAck<WorkItemAck> {
  readonly execution: string;
}

/**
 * Longest an acknowledgement waits for activities of the same execution still running here, so
 * a fan-out's completions commit together (and reach its orchestration in one turn).
 */
const SIBLING_WAIT_MS = 5;

/**
 * How a runtime's worker slots acknowledge activities. With the provider's `ackWorkItems`,
 * acknowledgements are coalesced: they go out together once no other activity of their
 * executions is still running in this runtime (or after {@link SIBLING_WAIT_MS}), and those that
 * arrive while a call is in flight go out right after it. An activity with no sibling running
 * is sent from the next `setImmediate` callback, so nothing waits without a reason. Every
 * acknowledgement still succeeds or fails on its own. Without `ackWorkItems`, each goes out
 * alone with `ackWorkItem`.
 * @internal
 */
export class WorkItemAcks {
  private readonly ackWorkItems: Provider['ackWorkItems'];
  /** Activities running per execution, not yet acknowledged or finished. */
  private readonly running = new Map<string, number>();
  private pending: PendingAck[] = [];
  private flushing = false;
  private flushScheduled = false;
  private siblingTimer: NodeJS.Timeout | undefined;

  constructor(private readonly provider: Provider) {
    this.ackWorkItems = provider.ackWorkItems?.bind(provider);
  }

  /** Starts following an activity of `instance`'s execution `executionId`. */
  track(instance: string, executionId: number): TrackedActivity {
    const execution = `${executionId}:${instance}`;
    this.running.set(execution, (this.running.get(execution) ?? 0) + 1);
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      const left = (this.running.get(execution) ?? 1) - 1;
      if (left > 0) this.running.set(execution, left);
      else this.running.delete(execution);
      this.considerFlush();
    };
    const acknowledge = (lockToken: string, completion: WorkItem | null): Promise<void> => {
      if (this.ackWorkItems === undefined) {
        finish();
        return this.provider.ackWorkItem(lockToken, completion);
      }
      const queued = new Promise<void>((resolve, reject) => {
        this.pending.push({ execution, ack: { lockToken, completion }, resolve, reject });
      });
      finish();
      // An acknowledgement retried after a failure finds its activity already finished.
      this.considerFlush();
      return queued;
    };
    return { acknowledge, finish };
  }

  /** Whether no pending acknowledgement waits for a sibling still running. */
  private ready(): boolean {
    return this.pending.every((entry) => !this.running.has(entry.execution));
  }

  private considerFlush(): void {
    if (this.flushing || this.pending.length === 0) return;
    if (this.ready()) {
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    } else {
      this.siblingTimer ??= setTimeout(() => void this.flush(), SIBLING_WAIT_MS);
    }
  }

  private async flush(): Promise<void> {
    const ackWorkItems = this.ackWorkItems;
    this.flushScheduled = false;
    clearTimeout(this.siblingTimer);
    this.siblingTimer = undefined;
    if (this.flushing || ackWorkItems === undefined) return;
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await sendTogether(batch, ackWorkItems, 'ackWorkItems');
      if (!this.ready()) break;
    }
    this.flushing = false;
    this.considerFlush();
  }
}
