import type { OrchestrationContext } from '@duro/core';

/** Slots of the ring; a session stops draining its queue while the ring is full. */
export const FIFO_CAPACITY = 40;

const HEAD_KEY = 'fifo.head';
const TAIL_KEY = 'fifo.tail';

function slotKey(index: number): string {
  return `fifo.${index % FIFO_CAPACITY}`;
}

/**
 * A replay-safe FIFO in an orchestration's key-value store, as PilotSwarm keeps the messages a
 * session has taken off its queue but not yet handled: a ring of slots plus head and tail
 * counters, all in KV, so it survives continue-as-new without riding in the next input.
 */
export class KvFifo {
  constructor(private readonly ctx: OrchestrationContext) {}

  private counter(key: string): number {
    return Number(this.ctx.getValue(key) ?? '0');
  }

  /** Entries waiting. */
  get size(): number {
    return this.counter(TAIL_KEY) - this.counter(HEAD_KEY);
  }

  get full(): boolean {
    return this.size >= FIFO_CAPACITY;
  }

  /**
   * Appends one entry.
   * @throws {RangeError} when the ring is full (callers check `full` first).
   */
  push(entry: string): void {
    if (this.full) throw new RangeError(`KV FIFO is full (${FIFO_CAPACITY} entries)`);
    const tail = this.counter(TAIL_KEY);
    this.ctx.setValue(slotKey(tail), entry);
    this.ctx.setValue(TAIL_KEY, String(tail + 1));
  }

  /** Removes and returns up to `count` entries, oldest first. */
  take(count: number): string[] {
    const head = this.counter(HEAD_KEY);
    const taking = Math.min(count, this.size);
    const taken: string[] = [];
    for (let index = head; index < head + taking; index += 1) {
      const key = slotKey(index);
      taken.push(this.ctx.getValue(key) ?? `<missing ${key}>`);
      this.ctx.clearValue(key);
    }
    if (taken.length > 0) this.ctx.setValue(HEAD_KEY, String(head + taken.length));
    return taken;
  }
}
