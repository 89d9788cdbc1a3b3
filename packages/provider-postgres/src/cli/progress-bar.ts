import type { CliIo } from './cli-io.js';

const WIDTH = 30;

/**
 * A progress bar on standard error: on a terminal it redraws one line in place
 * (`[#########.....] 12/40 label`); elsewhere (a pipe, a CI log) it prints nothing until
 * {@link ProgressBar.done}, which prints the final line once.
 */
export class ProgressBar {
  private current = 0;

  constructor(
    private readonly io: CliIo,
    private readonly total: number,
    private readonly label: string,
  ) {}

  /** Moves the bar forward by `steps`. */
  advance(steps = 1): void {
    this.current = Math.min(this.total, this.current + steps);
    if (this.io.stderrIsTty) this.io.stderr.write(`\r${this.line()}`);
  }

  /** Ends the bar with its last state on a line of its own. */
  done(): void {
    this.io.stderr.write(this.io.stderrIsTty ? `\r${this.line()}\n` : `${this.line()}\n`);
  }

  private line(): string {
    const filled = this.total === 0 ? WIDTH : Math.round((this.current / this.total) * WIDTH);
    return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${this.current}/${this.total} ${this.label}`;
  }
}
