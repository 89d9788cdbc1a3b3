import { resolve } from 'node:path';

/**
 * The file `SqliteProvider.open` opens for `location`, or `null` for a private in-memory
 * database. Takes what duroxide-node's `SqliteProvider.open` takes: a path, or a sqlx-style URL
 * `sqlite:path` / `sqlite://path` (`sqlite::memory:` for memory).
 * @throws {TypeError} for an empty location, or a URL with query parameters (sqlx options this
 *   provider does not read).
 * @internal
 */
export function databaseFile(location: string): string | null {
  if (typeof location !== 'string' || location.trim() === '') {
    throw new TypeError(`SqliteProvider.open needs a file path, got ${JSON.stringify(location)}`);
  }
  const path = location.replace(/^sqlite:(\/\/)?/, '');
  if (path.includes('?')) {
    throw new TypeError(
      `SqliteProvider.open takes a path or sqlite:path without query parameters, got ${location}`,
    );
  }
  if (path === ':memory:') return null;
  if (path === '') throw new TypeError(`SqliteProvider.open needs a file path, got ${location}`);
  return resolve(path);
}
