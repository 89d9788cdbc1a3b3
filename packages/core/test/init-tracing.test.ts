import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryProvider, Runtime, initTracing } from '../src/index.js';

// initTracing installs a process-wide destination, as duroxide-node's does; vitest gives this
// file a module graph of its own, and its tests run in order.
const directory = mkdtempSync(join(tmpdir(), 'duro-tracing-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('initTracing', () => {
  it('throws an error naming the log file when it cannot be opened', () => {
    const missing = join(directory, 'no-such-folder', 'duro.log');
    expect(() => initTracing({ logFile: missing })).toThrow(
      `initTracing: cannot open log file ${missing}`,
    );
  });

  it('sends the log lines of runtimes created afterwards to the file, at its level and format, over their own options', async () => {
    const logFile = join(directory, 'duro.log');
    initTracing({ logFile, logLevel: 'debug', logFormat: 'compact' });
    const runtime = new Runtime(new InMemoryProvider(), { logLevel: 'silent', logFormat: 'json' });
    await runtime.start();
    await runtime.shutdown();
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    expect(
      lines.some((line) =>
        /Z {2}INFO duro: duro runtime starting with provider in-memory/.test(line),
      ),
    ).toBe(true);
  });

  it('refuses a second call, naming where the first one writes', () => {
    expect(() => initTracing({ logFile: join(directory, 'other.log') })).toThrow(
      `tracing is already initialised in this process (writing to ${join(directory, 'duro.log')})`,
    );
  });
});
