import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const MIB = 2 ** 20;

/**
 * V8's full garbage collection, without `node --expose-gc`: exposing the flag at run time makes a
 * new context see `gc`.
 */
export function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Where a process's memory is, MiB: what the bench reads to tell where a runtime's memory goes. */
export interface MemoryBreakdown {
  /** Resident set now, and the most it ever was. */
  readonly rssMiB: number;
  readonly peakRssMiB: number;
  /** The V8 heap the process holds (committed), and of it the young generation's spaces. */
  readonly heapCommittedMiB: number;
  readonly youngGenerationMiB: number;
  /** Objects in the heap now, garbage included, and what is left after a full collection. */
  readonly heapUsedMiB: number;
  readonly heapLiveMiB: number;
  /** Memory outside the heap that JavaScript objects hold (buffers). */
  readonly externalMiB: number;
}

/** This process's memory now; forces a full collection to find what is live, so call it last. */
export function memoryBreakdown(): MemoryBreakdown {
  const before = process.memoryUsage();
  const young = getHeapSpaceStatistics()
    .filter(
      (space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space',
    )
    .reduce((sum, space) => sum + space.space_size, 0);
  fullCollection()();
  return {
    rssMiB: before.rss / MIB,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    heapCommittedMiB: before.heapTotal / MIB,
    youngGenerationMiB: young / MIB,
    heapUsedMiB: before.heapUsed / MIB,
    heapLiveMiB: process.memoryUsage().heapUsed / MIB,
    externalMiB: before.external / MIB,
  };
}
