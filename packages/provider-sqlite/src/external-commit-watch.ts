import type { SqliteDatabase } from './database/sqlite-database.js';

/**
 * Notices commits of other connections to the database (other processes, other providers of
 * this process), which this provider's own writes cannot announce: while any of its fetches
 * waits, it reads SQLite's `data_version` every `intervalMs` and calls `onCommit` when the
 * number moved. Every fetch attempt checks too, so a commit seen by one look wakes every waiter.
 * Its timer never keeps the process alive.
 * @internal
 */
export class ExternalCommitWatch {
  private waiting = 0;
  private timer: NodeJS.Timeout | null = null;
  private seenVersion: number;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly intervalMs: number,
    private readonly onCommit: () => void,
  ) {
    this.seenVersion = db.dataVersion();
  }

  /** Calls `onCommit` when another connection committed since the last check. */
  check(): void {
    if (!this.db.isOpen) return;
    const version = this.db.dataVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.onCommit();
  }

  /** Runs `wait` (a fetch that may wait) with the periodic check on while it lasts. */
  async during<T>(wait: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    if (this.timer === null) {
      this.timer = setInterval(() => this.check(), this.intervalMs);
      this.timer.unref();
    }
    try {
      return await wait();
    } finally {
      this.waiting -= 1;
      if (this.waiting === 0 && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }
  }
}
