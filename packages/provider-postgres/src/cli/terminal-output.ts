/**
 * Lays `rows` out as aligned columns under `headers`, two spaces apart, one line each.
 * A cell is printed as given; `null` prints as `-`.
 */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  const cells = [
    headers,
    ...rows.map((row) => row.map((cell) => (cell === null ? '-' : String(cell)))),
  ];
  const widths = headers.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? '').length)),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}

/** Lines of `key: value` with the keys aligned; `null` values print as `-`. */
export function formatFields(
  fields: readonly (readonly [string, string | number | null])[],
): string {
  const width = Math.max(...fields.map(([key]) => key.length)) + 1;
  return fields
    .map(([key, value]) => `${`${key}:`.padEnd(width)} ${value === null ? '-' : String(value)}`)
    .join('\n')
    .concat('\n');
}

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

/** Writes `value` as indented JSON and a newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
