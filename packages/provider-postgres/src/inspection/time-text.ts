/** An epoch-millisecond time as ISO 8601 in UTC, or `-` for none. */
export function formatTime(epochMs: number | null): string {
  return epochMs === null ? '-' : new Date(epochMs).toISOString();
}

/** A duration in milliseconds, as people read it: `850 ms`, `12.3 s`, `4 min 5 s`, `2 h 3 min`. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${Math.round(abs)} ms`;
  if (abs < 60_000) return `${(abs / 1_000).toFixed(1)} s`;
  if (abs < 3_600_000)
    return `${Math.floor(abs / 60_000)} min ${Math.floor((abs % 60_000) / 1_000)} s`;
  return `${Math.floor(abs / 3_600_000)} h ${Math.floor((abs % 3_600_000) / 60_000)} min`;
}
