/** An epoch-ms time as `2026-05-01 12:34:56.789` in the browser's time zone, or `-`. */
export function formatTime(epochMs: number | null): string {
  if (epochMs === null) return '-';
  const date = new Date(epochMs);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  );
}

/** A duration in ms as people read it: `850 ms`, `12.3 s`, `4 min 5 s`, `2 h 3 min`. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${Math.round(abs)} ms`;
  if (abs < 60_000) return `${(abs / 1_000).toFixed(1)} s`;
  if (abs < 3_600_000)
    return `${Math.floor(abs / 60_000)} min ${Math.floor((abs % 60_000) / 1_000)} s`;
  return `${Math.floor(abs / 3_600_000)} h ${Math.floor((abs % 3_600_000) / 60_000)} min`;
}

/** A count with thousands separators, `≈` for an estimate and `+` for a lower bound. */
export function formatCount(
  count: number,
  precision: 'exact' | 'estimate' | 'atLeast' = 'exact',
): string {
  const text = count.toLocaleString('en-US');
  return precision === 'estimate' ? `≈ ${text}` : precision === 'atLeast' ? `${text}+` : text;
}

/** JSON text pretty-printed when it parses, as it is otherwise. */
export function prettyJson(text: string | null): string {
  if (text === null) return '-';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
