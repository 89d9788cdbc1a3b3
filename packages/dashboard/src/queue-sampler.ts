import type { ActivityCounters, SchemaInspector } from '@duro/provider-postgres/inspection';
import type { QueueSampleJson } from './shared/api-types.js';

/**
 * Reads the queue figures and the activity counters every `intervalMs` and keeps the last
 * `capacity` readings, for the plots of the queues page. A reading that fails (the database is
 * away) is skipped and remembered as `lastError`; the next one is tried as usual. Readings never
 * overlap: the next is scheduled when the previous one ended.
 */
export class QueueSampler {
  readonly #samples: QueueSampleJson[] = [];
  #previous: ActivityCounters | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = false;
  /** The message of the last failed reading, cleared by the next one that succeeds. */
  lastError: string | null = null;

  constructor(
    private readonly inspector: SchemaInspector,
    readonly intervalMs: number,
    private readonly capacity: number,
  ) {}

  /** Takes a first reading now and then one every interval, until {@link stop}. */
  start(): void {
    this.#schedule(0);
  }

  /** The readings kept, oldest first. */
  samples(): readonly QueueSampleJson[] {
    return [...this.#samples];
  }

  /** Stops sampling and waits for a reading in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#sample().finally(() => this.#schedule(this.intervalMs));
    }, delayMs);
    // Sampling alone never keeps a process alive.
    this.#timer.unref();
  }

  async #sample(): Promise<void> {
    try {
      const nowMs = Date.now();
      const overview = await this.inspector.readQueueOverview(nowMs);
      const counters = await this.inspector.readActivityCounters(nowMs);
      const previous = this.#previous;
      const rate = (pick: (counters: ActivityCounters) => number | null): number | null => {
        const now = pick(counters);
        const before = previous === null ? null : pick(previous);
        const seconds = previous === null ? 0 : (counters.readAtMs - previous.readAtMs) / 1_000;
        // A counter that went back (statistics reset, schema recreated) says nothing.
        return now === null || before === null || seconds <= 0 || now < before
          ? null
          : (now - before) / seconds;
      };
      this.#samples.push({
        atMs: nowMs,
        orchestratorReady: overview.orchestratorQueue.ready.count,
        orchestratorDelayed: overview.orchestratorQueue.delayed.count,
        workerReady: overview.workerQueue.ready.count,
        workerRunning: overview.workerQueue.running.count,
        locksHeld: overview.instanceLocks.held.count,
        instancesPerSecond: rate((c) => c.instancesCreated),
        orchestratorMessagesPerSecond: rate((c) => c.orchestratorMessages),
        activitiesScheduledPerSecond: rate((c) => c.activitiesScheduled),
        activitiesFinishedPerSecond: rate((c) => c.activitiesFinished),
        historyEventsPerSecond: rate((c) => c.historyEvents),
      });
      if (this.#samples.length > this.capacity) this.#samples.shift();
      this.#previous = counters;
      this.lastError = null;
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
    }
  }
}
