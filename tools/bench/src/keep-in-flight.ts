/**
 * Runs `total` instances through `runOne`, never more than `inFlight` at once, starting the next
 * as soon as one finishes.
 * @returns each instance's result, in start order.
 */
export async function keepInFlight<T>(
  total: number,
  inFlight: number,
  runOne: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(total);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < total) {
      const index = next++;
      results[index] = await runOne(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
  return results;
}
