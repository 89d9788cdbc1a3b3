import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client, InMemoryProvider, Runtime, type RuntimeOptions } from '../src/index.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a runtime created with `options` writes to standard error while it starts and stops, in
 * a process of its own running the built package (standard error is the process's).
 */
function runtimeStderr(options: RuntimeOptions): string {
  const script = `
    import { InMemoryProvider, Runtime } from '@duro/core';
    const runtime = new Runtime(new InMemoryProvider(), ${JSON.stringify(options)});
    await runtime.start();
    await runtime.shutdown();`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageRoot,
    encoding: 'utf8',
  });
  expect(child.status, child.stderr).toBe(0);
  return child.stderr;
}

/**
 * Which of two activities, one tagged `gpu` and one untagged, scheduled together, a runtime with
 * `options` runs (`first`), and which a default runtime started afterwards runs (`rest`), once
 * the orchestration completed. The first runtime alone claims whatever its filter takes, before
 * the second one exists.
 */
async function activitiesRun(
  options: RuntimeOptions,
): Promise<{ first: string[]; rest: string[] }> {
  const provider = new InMemoryProvider();
  const quick: RuntimeOptions = { dispatcherPollIntervalMs: 10, logLevel: 'silent' };
  const started: Runtime[] = [];
  const start = async (extra: RuntimeOptions, ran: string[]) => {
    const runtime = new Runtime(provider, { ...quick, ...extra });
    runtime.registerActivity('Work', async (_ctx, name: string) => ran.push(name));
    runtime.registerOrchestration('Both', function* (ctx) {
      yield ctx.all([
        ctx.scheduleActivity('Work', 'gpu').withTag('gpu'),
        ctx.scheduleActivity('Work', 'plain'),
      ]);
    });
    await runtime.start();
    started.push(runtime);
  };
  const first: string[] = [];
  const rest: string[] = [];
  try {
    await start(options, first);
    const client = new Client(provider);
    await client.startOrchestration('both', 'Both');
    for (let tries = 0; tries < 500 && !first.includes('gpu'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await start({ workerTagFilter: 'defaultOnly' }, rest);
    await client.waitForOrchestration('both', 10_000);
  } finally {
    await Promise.all(started.map((runtime) => runtime.shutdown()));
  }
  return { first: first.sort(), rest };
}

describe("duroxide-node's logging options", () => {
  it('logFormat, serviceName and serviceVersion shape the lines of the built-in logger', () => {
    const compact = runtimeStderr({ logFormat: 'compact', serviceName: 'orders' });
    expect(compact).toMatch(
      /^\S+Z {2}INFO orders: duro runtime starting with provider in-memory \(0\.1\.32\) runtimeId=\w+$/m,
    );
    const json = JSON.parse(
      runtimeStderr({ serviceName: 'orders', serviceVersion: '2.1.0' }).split('\n')[0] ?? '',
    ) as Record<string, unknown>;
    expect(json).toMatchObject({ name: 'orders', serviceVersion: '2.1.0', level: 30 });
  });

  it("logLevel 'trace' is accepted and writes every line; an unknown logFormat is refused", () => {
    expect(runtimeStderr({ logLevel: 'trace', logFormat: 'pretty' })).toMatch(
      /INFO duro: duro runtime starting with provider in-memory \(0\.1\.32\)\n {4}runtimeId: \w+/,
    );
    expect(() => new Runtime(new InMemoryProvider(), { logFormat: 'xml' as 'json' })).toThrow(
      'log format must be one of json, pretty, compact, got xml',
    );
  });
});

describe("duroxide-node's flat tag filter options", () => {
  it("workerTagFilter 'tags' with workerTagFilterTags takes only those tags", async () => {
    expect(await activitiesRun({ workerTagFilter: 'tags', workerTagFilterTags: ['gpu'] })).toEqual({
      first: ['gpu'],
      rest: ['plain'],
    });
  });

  it("workerTagFilter 'defaultAnd' with workerTagFilterTags takes untagged work and those tags", async () => {
    expect(
      await activitiesRun({ workerTagFilter: 'defaultAnd', workerTagFilterTags: ['gpu'] }),
    ).toEqual({ first: ['gpu', 'plain'], rest: [] });
  });

  it('a flat filter without its tags, or tags with a filter that takes none, is refused', () => {
    const provider = new InMemoryProvider();
    expect(() => new Runtime(provider, { workerTagFilter: 'tags' })).toThrow(
      "RuntimeOptions.workerTagFilter 'tags' needs the tags in workerTagFilterTags",
    );
    expect(
      () => new Runtime(provider, { workerTagFilter: 'any', workerTagFilterTags: ['gpu'] }),
    ).toThrow(
      "RuntimeOptions.workerTagFilterTags needs workerTagFilter 'tags' or 'defaultAnd', got \"any\"",
    );
  });
});
