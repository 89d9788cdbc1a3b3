import type { Event, KvEntry } from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';

// Key-value state in duroxide's two SQLite tables (its model since 0.1.26): `kv_store` holds what
// finished executions left, `kv_delta` what the running one changed so far, a NULL value marking
// a cleared key. An execution's end folds its delta into the store. A fetch's snapshot is the
// store alone, since the runtime rebuilds the running execution's changes from its history;
// clients read the live view, the delta over the store.

/** Records the key-value events of a turn's history delta, in order. @internal */
export function recordKvEvents(
  db: SqliteDatabase,
  instance: string,
  events: readonly Event[],
  nowMs: number,
): void {
  for (const { kind } of events) {
    switch (kind.type) {
      case 'KeyValueSet':
        db.statement(
          'INSERT INTO kv_delta (instance_id, key, value, last_updated_at_ms) VALUES (?, ?, ?, ?) ' +
            'ON CONFLICT (instance_id, key) DO UPDATE ' +
            'SET value = excluded.value, last_updated_at_ms = excluded.last_updated_at_ms',
        ).run(instance, kind.key, kind.value, kind.lastUpdatedAtMs);
        break;
      case 'KeyValueCleared':
        db.statement(
          'INSERT INTO kv_delta (instance_id, key, value, last_updated_at_ms) VALUES (?, ?, NULL, ?) ' +
            'ON CONFLICT (instance_id, key) DO UPDATE ' +
            'SET value = NULL, last_updated_at_ms = excluded.last_updated_at_ms',
        ).run(instance, kind.key, nowMs);
        break;
      case 'KeyValuesCleared':
        db.statement(
          'UPDATE kv_delta SET value = NULL, last_updated_at_ms = ? WHERE instance_id = ?',
        ).run(nowMs, instance);
        db.statement(
          'INSERT OR IGNORE INTO kv_delta (instance_id, key, value, last_updated_at_ms) ' +
            'SELECT instance_id, key, NULL, ? FROM kv_store WHERE instance_id = ?',
        ).run(nowMs, instance);
        break;
      default:
        break;
    }
  }
}

/** Merges the running execution's delta into the committed store and clears it. @internal */
export function commitKvDelta(db: SqliteDatabase, instance: string): void {
  db.statement(
    'INSERT INTO kv_store (instance_id, key, value, last_updated_at_ms) ' +
      'SELECT instance_id, key, value, last_updated_at_ms FROM kv_delta ' +
      'WHERE instance_id = ? AND value IS NOT NULL ' +
      'ON CONFLICT (instance_id, key) DO UPDATE ' +
      'SET value = excluded.value, last_updated_at_ms = excluded.last_updated_at_ms',
  ).run(instance);
  db.statement(
    'DELETE FROM kv_store WHERE instance_id = ? AND key IN ' +
      '(SELECT key FROM kv_delta WHERE instance_id = ? AND value IS NULL)',
  ).run(instance, instance);
  db.statement('DELETE FROM kv_delta WHERE instance_id = ?').run(instance);
}

/** The committed key-value state, as a fetch hands it out. @internal */
export function kvSnapshot(db: SqliteDatabase, instance: string): Map<string, KvEntry> {
  const rows = db
    .statement('SELECT key, value, last_updated_at_ms FROM kv_store WHERE instance_id = ?')
    .all(instance) as { key: string; value: string; last_updated_at_ms: number }[];
  return new Map(
    rows.map(({ key, value, last_updated_at_ms }) => [
      key,
      { value, lastUpdatedAtMs: last_updated_at_ms },
    ]),
  );
}

// The live view: every key of the store or the delta, the delta's value winning; cleared keys
// (a NULL in the delta) are left out. Shared by the one-key read, the all-keys read and the
// instance statistics.
const LIVE_KV = `
  SELECT s.key AS key, COALESCE(d.value, CASE WHEN d.key IS NULL THEN s.value END) AS value
  FROM kv_store s LEFT JOIN kv_delta d ON d.instance_id = s.instance_id AND d.key = s.key
  WHERE s.instance_id = :instance
  UNION ALL
  SELECT d.key, d.value FROM kv_delta d
  WHERE d.instance_id = :instance
    AND NOT EXISTS (SELECT 1 FROM kv_store s WHERE s.instance_id = d.instance_id AND s.key = d.key)`;

/** Every live key and value of an instance. @internal */
export function liveKvValues(db: SqliteDatabase, instance: string): Map<string, string> {
  const rows = db
    .statement(`SELECT key, value FROM (${LIVE_KV}) WHERE value IS NOT NULL`)
    .all({ instance }) as { key: string; value: string }[];
  return new Map(rows.map(({ key, value }) => [key, value]));
}

/** One key of the live view; `null` when absent or cleared. @internal */
export function liveKvValue(db: SqliteDatabase, instance: string, key: string): string | null {
  const row = db
    .statement(`SELECT value FROM (${LIVE_KV}) WHERE key = :key`)
    .get({ instance, key }) as { value: string | null } | undefined;
  return row?.value ?? null;
}

/** Live key count and total UTF-8 bytes of the live values. @internal */
export function liveKvUsage(
  db: SqliteDatabase,
  instance: string,
): { readonly keyCount: number; readonly valueBytes: number } {
  const row = db
    .statement(
      'SELECT COUNT(*) AS keyCount, COALESCE(SUM(LENGTH(CAST(value AS BLOB))), 0) AS valueBytes ' +
        `FROM (${LIVE_KV}) WHERE value IS NOT NULL`,
    )
    .get({ instance }) as { keyCount: number; valueBytes: number };
  return row;
}
