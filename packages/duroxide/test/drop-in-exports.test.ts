import * as duroxide from '@duro/duroxide';
import { describe, expect, it } from 'vitest';

describe("@duro/duroxide exports duroxide-node's names", () => {
  it('every class, function and constant duroxide-node exports, and nothing else', () => {
    expect(Object.keys(duroxide).sort()).toEqual([
      'ActivityContext',
      'Client',
      'MAX_KV_KEYS',
      'MAX_KV_VALUE_BYTES',
      'MAX_TAG_NAME_BYTES',
      'MAX_WORKER_TAGS',
      'OrchestrationContext',
      'PostgresProvider',
      'Runtime',
      'SqliteProvider',
      'initTracing',
    ]);
  });

  it("the limits have duroxide-node's values", () => {
    expect(duroxide.MAX_KV_KEYS).toBe(150);
    expect(duroxide.MAX_KV_VALUE_BYTES).toBe(65_536);
    expect(duroxide.MAX_WORKER_TAGS).toBe(5);
    expect(duroxide.MAX_TAG_NAME_BYTES).toBe(256);
  });

  it("the providers are built by duroxide-node's factories", async () => {
    expect(typeof duroxide.PostgresProvider.connect).toBe('function');
    expect(typeof duroxide.PostgresProvider.connectWithSchema).toBe('function');
    const inMemory = await duroxide.SqliteProvider.inMemory();
    const fromUrl = await duroxide.SqliteProvider.open('sqlite::memory:');
    try {
      expect(inMemory.file).toBeNull();
      expect(fromUrl.file).toBeNull();
      expect(await new duroxide.Client(inMemory).getStatus('nothing')).toMatchObject({
        status: 'NotFound',
      });
    } finally {
      await Promise.all([inMemory.close(), fromUrl.close()]);
    }
  });
});
