/** A span of time, epoch ms, `fromMs` included, `toMs` excluded. */
export interface Interval {
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * A union of spans of time, kept sorted and disjoint, for asking how much of a span it covers
 * (a binary search and a walk over the pieces the span touches).
 */
export class IntervalUnion {
  private constructor(private readonly pieces: readonly Interval[]) {}

  /** The union of `intervals` (empty and reversed ones are ignored). */
  static of(intervals: Iterable<Interval>): IntervalUnion {
    const sorted = [...intervals]
      .filter((interval) => interval.toMs > interval.fromMs)
      .sort((a, b) => a.fromMs - b.fromMs);
    const pieces: Interval[] = [];
    for (const interval of sorted) {
      const last = pieces.at(-1);
      if (last !== undefined && interval.fromMs <= last.toMs) {
        pieces[pieces.length - 1] = {
          fromMs: last.fromMs,
          toMs: Math.max(last.toMs, interval.toMs),
        };
      } else {
        pieces.push({ fromMs: interval.fromMs, toMs: interval.toMs });
      }
    }
    return new IntervalUnion(pieces);
  }

  /** The disjoint spans of the union, earliest first. */
  intervals(): readonly Interval[] {
    return this.pieces;
  }

  /** This union less every span of `holes`. */
  without(holes: Iterable<Interval>): IntervalUnion {
    const cut = IntervalUnion.of(holes).pieces;
    const pieces: Interval[] = [];
    for (const piece of this.pieces) {
      let fromMs = piece.fromMs;
      for (const hole of cut) {
        if (hole.toMs <= fromMs || hole.fromMs >= piece.toMs) continue;
        if (hole.fromMs > fromMs) pieces.push({ fromMs, toMs: hole.fromMs });
        fromMs = Math.max(fromMs, hole.toMs);
      }
      if (fromMs < piece.toMs) pieces.push({ fromMs, toMs: piece.toMs });
    }
    return new IntervalUnion(pieces);
  }

  /** How many ms of `[fromMs, toMs)` the union covers. */
  coveredMs(fromMs: number, toMs: number): number {
    return this.within(fromMs, toMs).reduce((sum, piece) => sum + piece.toMs - piece.fromMs, 0);
  }

  /** The parts of the union inside `[fromMs, toMs)`. */
  within(fromMs: number, toMs: number): Interval[] {
    let low = 0;
    let high = this.pieces.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.pieces[middle]?.toMs ?? 0) <= fromMs) low = middle + 1;
      else high = middle;
    }
    const inside: Interval[] = [];
    for (let index = low; index < this.pieces.length; index += 1) {
      const piece = this.pieces[index];
      if (piece === undefined || piece.fromMs >= toMs) break;
      const clipped = { fromMs: Math.max(piece.fromMs, fromMs), toMs: Math.min(piece.toMs, toMs) };
      if (clipped.toMs > clipped.fromMs) inside.push(clipped);
    }
    return inside;
  }
}
