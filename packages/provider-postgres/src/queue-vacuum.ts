import type { ProviderDatabase } from './database/provider-database.js';
import type { Statement } from './database/statement.js';

/**
 * The tables every turn and every activity adds rows to and deletes them from. `SKIP_LOCKED`
 * passes over a table another session is vacuuming (another worker, or autovacuum) instead of
 * waiting for it. A role that may not vacuum them gets a warning from the server, not an error.
 */
const VACUUM_QUEUES: Statement = {
  operation: 'vacuum_queues',
  sql: (s) =>
    `VACUUM (SKIP_LOCKED) ${s}.orchestrator_queue, ${s}.worker_queue, ${s}.instance_locks`,
};

/**
 * Vacuums the queue tables every `intervalMs` while the provider writes to them, so that their
 * dead rows do not pile up for the minute autovacuum takes to come round: until a vacuum, a
 * statement that passes them (a sequential scan, an index entry not yet marked dead) reads them
 * again each time, and a worker's throughput sinks as the minute goes on. An idle provider sends
 * nothing. A failed vacuum is tried again at the next interval.
 * @internal
 */
export class QueueVacuum {
  readonly #db: ProviderDatabase;
  readonly #timer: NodeJS.Timeout | null;
  #churned = false;
  #running: Promise<void> | null = null;

  constructor(db: ProviderDatabase, intervalMs: number) {
    this.#db = db;
    this.#timer = intervalMs > 0 ? setInterval(() => this.#vacuum(), intervalMs).unref() : null;
  }

  /** Notes that the queues had rows claimed or deleted since the last vacuum. */
  noteChurn(): void {
    this.#churned = true;
  }

  /** Stops the timer and waits for a vacuum in progress. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#running;
  }

  #vacuum(): void {
    if (!this.#churned || this.#running !== null || this.#db.closed) return;
    this.#churned = false;
    this.#running = this.#db
      .query(VACUUM_QUEUES, [])
      .then(
        () => undefined,
        () => this.noteChurn(),
      )
      .finally(() => {
        this.#running = null;
      });
  }
}
