import type { MetricsSnapshot } from '@duro/core';

/** Adds runtime metric snapshots field by field (`null` when there are none). */
export function sumMetrics(snapshots: readonly (MetricsSnapshot | null)[]): MetricsSnapshot | null {
  return snapshots.reduce<MetricsSnapshot | null>((sum, next) => {
    if (next === null) return sum;
    if (sum === null) return next;
    const added: Record<string, number> = {};
    for (const key of Object.keys(sum) as (keyof MetricsSnapshot)[]) {
      added[key] = sum[key] + next[key];
    }
    return added as unknown as MetricsSnapshot;
  }, null);
}
