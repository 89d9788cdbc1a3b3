import { ProviderError } from '@duro/core';
import { SqliteProvider } from '@duro/provider-sqlite';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirectory } from './support/temp-directory.js';

const directory = useTempDirectory('open');

describe('opening a database', () => {
  it('takes a path or a sqlx-style sqlite: URL, creating the file and its folders', async () => {
    const nested = join(directory, 'a', 'b', 'orders.db');
    for (const location of [nested, `sqlite:${nested}`, `sqlite://${nested}`]) {
      const provider = await SqliteProvider.open(location);
      expect(provider.file).toBe(nested);
      await provider.close();
    }
  });

  it('refuses what is not a location, naming it', async () => {
    await expect(SqliteProvider.open('')).rejects.toThrow(TypeError);
    await expect(SqliteProvider.open(`sqlite:${join(directory, 'x.db')}?mode=rwc`)).rejects.toThrow(
      'without query parameters',
    );
  });

  it('refuses options out of range, naming the option', async () => {
    await expect(SqliteProvider.inMemory({ busyTimeoutMs: -1 })).rejects.toThrow(
      'SqliteProviderOptions.busyTimeoutMs must be a finite number of milliseconds >= 0, got -1',
    );
    await expect(SqliteProvider.inMemory({ pollIntervalMs: 0 })).rejects.toThrow(
      'SqliteProviderOptions.pollIntervalMs',
    );
    await expect(SqliteProvider.inMemory({ synchronous: 'OFF' as 'FULL' })).rejects.toThrow(
      "SqliteProviderOptions.synchronous must be 'FULL' or 'NORMAL', got OFF",
    );
  });

  it('a file that is not a database is a permanent error naming the file', async () => {
    const file = join(directory, 'not-a-database.db');
    writeFileSync(file, 'this is a text file, not SQLite, and it is long enough to be read');
    const error: unknown = await SqliteProvider.open(file).catch((reason: unknown) => reason);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toContain(`SQLite database ${file}: SQLITE_NOTADB`);
  });

  it('in memory, each provider has a database of its own, and a closed provider refuses calls', async () => {
    const first = await SqliteProvider.inMemory();
    const second = await SqliteProvider.inMemory();
    await first.enqueueForOrchestrator(
      { type: 'ExternalRaised', instance: 'i', name: 'e', data: '1' },
      null,
    );
    expect((await first.getQueueDepths()).orchestratorQueue).toBe(1);
    expect((await second.getQueueDepths()).orchestratorQueue).toBe(0);
    await first.close();
    await second.close();
    await expect(first.getQueueDepths()).rejects.toThrow(
      'get_queue_depths: the provider is closed',
    );
    expect(
      await first.fetchOrchestrationItem(1_000, 0, null).catch((error: unknown) => error),
    ).toMatchObject({
      retryable: false,
      message: 'fetch_orchestration_item: the provider is closed',
    });
  });
});
