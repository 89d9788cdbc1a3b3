import type { AuditLog } from './audit-log.js';
import type { FetchWait, LockEvent } from './audit-records.js';

/** How often buffered records go to the audit log, ms. */
const FLUSH_INTERVAL_MS = 100;

/**
 * Lock events and fetch waits of one worker, written to the audit log in batches every
 * {@link FLUSH_INTERVAL_MS} so that observing costs the worker one round trip per interval, not
 * one per acknowledgement. A worker killed between two flushes loses the last interval's records;
 * the checks treat a lock whose holder died as held until its lease ran out, so that loss can
 * hide nothing they judge. Records that could not be written are counted ({@link lost}).
 */
export class AuditBuffer {
  private events: LockEvent[] = [];
  private waits: FetchWait[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  /** Records the audit log refused after every retry. */
  lost = 0;

  constructor(private readonly audit: AuditLog) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  event(event: LockEvent): void {
    this.events.push(event);
  }

  wait(wait: FetchWait): void {
    this.waits.push(wait);
  }

  /** Writes everything buffered so far (after any flush already under way). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const events = this.events;
      const waits = this.waits;
      this.events = [];
      this.waits = [];
      try {
        await this.audit.append(events, waits);
      } catch (error) {
        this.lost += events.length + waits.length;
        console.error(
          `audit: could not record ${events.length + waits.length} records: ${String(error)}`,
        );
      }
    });
    return this.flushing;
  }

  /** Stops the periodic flush and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
