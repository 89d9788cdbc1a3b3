/**
 * A small deterministic random source (mulberry32). Orchestrations must make the same choices on
 * every replay, so every random choice of the workload comes from one of these, seeded from the
 * run seed and what is being decided (session id, iteration).
 */
export class SeededRandom {
  private state: number;

  constructor(...seedParts: readonly (number | string)[]) {
    this.state = hashSeed(seedParts);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `share` (0..1). */
  chance(share: number): boolean {
    return this.next() < share;
  }
}

/** FNV-1a over the textual seed parts: stable across processes and runtimes. */
function hashSeed(parts: readonly (number | string)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
