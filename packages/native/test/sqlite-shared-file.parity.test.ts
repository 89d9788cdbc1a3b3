import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForCustomStatus } from './duro-scenario-harness.js';
import { loadDuroNative } from './native-addon.js';
import { describeSharedStoreWorkers, startDuroWorker } from './shared-store-workers.js';
import { startRustSqliteProcess } from './support/rust-sqlite-process.js';

// The Rust worker runs in a child process (see support/rust-sqlite-worker.mjs), which needs the
// native build as every parity test does.
await loadDuroNative();
const directory = mkdtempSync(join(tmpdir(), 'duro-rust-sqlite-'));
const TIMEOUT_MS = 30_000;

interface LedgerRow {
  readonly version: number;
  readonly description: string;
  readonly installed_on: string;
  readonly success: number;
  readonly checksum: string;
  readonly execution_time: number;
}

/** sqlx's migration ledger of a file, read on a connection of its own. */
function ledgerOf(file: string): LedgerRow[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT version, description, installed_on, success, hex(checksum) AS checksum, ' +
          'execution_time FROM _sqlx_migrations ORDER BY version',
      )
      .all() as LedgerRow[];
  } finally {
    db.close();
  }
}

let provider: SqliteProvider;
beforeAll(async () => {
  provider = await SqliteProvider.open(join(directory, 'shared.db'));
});
afterAll(async () => {
  await provider.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("a SQLite file and duroxide's own SQLite provider", () => {
  it('a file duro created is accepted by duroxide as it is: no schema version runs again', async () => {
    const file = join(directory, 'made-by-duro.db');
    await (await SqliteProvider.open(file)).close();
    const before = ledgerOf(file);
    expect(before.map((row) => row.version)).toHaveLength(12);

    await (await startRustSqliteProcess(file)).stop();

    expect(ledgerOf(file)).toEqual(before);
  });

  it('a file duroxide created is served by duro, and the times Rust wrote read as milliseconds', async () => {
    const file = join(directory, 'made-by-rust.db');
    const startedAtMs = Date.now();
    const rust = await startRustSqliteProcess(file);
    const onRustFile = await SqliteProvider.open(file);
    try {
      const client = new Client(onRustFile);
      try {
        await client.startOrchestration('rust-file', 'SharedHandoff', 'c');
        await waitForCustomStatus(client, 'rust-file', 'waiting', TIMEOUT_MS);
      } finally {
        await rust.stop();
      }
      const duro = await startDuroWorker(onRustFile);
      try {
        await client.raiseEvent('rust-file', 'Go', 'now');
        const status = await client.waitForOrchestration('rust-file', TIMEOUT_MS);
        expect(status.output).toBe('rust:c then duro:c');
      } finally {
        await duro.runtime.shutdown(1_000);
      }
      // The Rust worker created the instance row, whose times default to SQLite's text clock
      // (whole seconds, UTC).
      const info = await onRustFile.getInstanceInfo('rust-file');
      expect(info.createdAt).toBeGreaterThanOrEqual(Math.floor(startedAtMs / 1000) * 1000);
      expect(info.createdAt).toBeLessThanOrEqual(Date.now());
      expect(ledgerOf(file).map((row) => row.version)).toEqual(
        ledgerOf(provider.file ?? '').map((row) => row.version),
      );
    } finally {
      await onRustFile.close();
    }
  });
});

describeSharedStoreWorkers('one SQLite file served by a Rust and a duro process', () => ({
  provider,
  startRustWorker: () => startRustSqliteProcess(provider.file ?? ''),
}));
