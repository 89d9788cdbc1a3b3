/** What the live display shows, refreshed about once a second. */
export interface ProgressSnapshot {
  readonly elapsedMs: number;
  readonly phase: string;
  readonly rootsDone: number;
  readonly roots: number;
  readonly instancesDone: number;
  readonly instances: number;
  readonly failed: number;
  readonly messagesSent: number;
  readonly turnsPerSecond: number;
  readonly activitiesPerSecond: number;
  readonly workersRunning: number;
  readonly workers: number;
  readonly restarts: number;
  readonly faults: number;
  readonly lastFault: string;
}

const PLAIN_EVERY_MS = 5_000;

function lines(snapshot: ProgressSnapshot): string[] {
  const elapsed = `${Math.round(snapshot.elapsedMs / 1000)} s`;
  return [
    `pilot-e2e  ${elapsed}  ${snapshot.phase}`,
    `  sessions  ${snapshot.rootsDone}/${snapshot.roots} roots, ${snapshot.instancesDone}/${snapshot.instances} instances done, ${snapshot.failed} failed`,
    `  traffic   ${snapshot.messagesSent} messages sent, ${snapshot.turnsPerSecond.toFixed(1)} turns/s, ${snapshot.activitiesPerSecond.toFixed(1)} activities/s`,
    `  fleet     ${snapshot.workersRunning}/${snapshot.workers} running, ${snapshot.restarts} restarts, ${snapshot.faults} faults${snapshot.lastFault === '' ? '' : ` (last: ${snapshot.lastFault})`}`,
  ];
}

/**
 * The live progress display: on a terminal, a block of lines redrawn in place; otherwise one
 * plain line every few seconds, so logs stay readable.
 */
export class ProgressDisplay {
  private drawn = 0;
  private lastPlainMs = -Infinity;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(snapshot: ProgressSnapshot): void {
    if (this.stream.isTTY) {
      const block = lines(snapshot);
      const up = this.drawn > 0 ? `\x1b[${this.drawn}A` : '';
      this.stream.write(up + block.map((line) => `\x1b[2K${line}\n`).join(''));
      this.drawn = block.length;
      return;
    }
    if (snapshot.elapsedMs - this.lastPlainMs < PLAIN_EVERY_MS) return;
    this.lastPlainMs = snapshot.elapsedMs;
    this.stream.write(
      `${lines(snapshot)
        .map((line) => line.trim())
        .join(' | ')}\n`,
    );
  }

  /** Prints a line above the live block (on a terminal) or as is. */
  note(line: string): void {
    if (this.stream.isTTY && this.drawn > 0) {
      this.stream.write(`\x1b[${this.drawn}A\x1b[0J`);
      this.drawn = 0;
    }
    this.stream.write(`${line}\n`);
  }
}
