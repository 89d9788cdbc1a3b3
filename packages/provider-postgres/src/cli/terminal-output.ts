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

/** Writes `value` as indented JSON and a newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
