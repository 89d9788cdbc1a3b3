/**
 * SQL for a time column read as epoch milliseconds. duro writes milliseconds; a row duroxide's
 * SQLite provider created keeps the column's `CURRENT_TIMESTAMP` default, text in UTC
 * (`2026-12-02 13:41:44`), which this converts.
 * @internal
 */
export function epochMs(column: string): string {
  return (
    `(CASE typeof(${column}) WHEN 'text' ` +
    `THEN CAST(unixepoch(${column}, 'subsec') * 1000 AS INTEGER) ELSE ${column} END)`
  );
}
