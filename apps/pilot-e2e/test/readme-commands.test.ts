import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cli-options.js';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

function scripts(packageJson: URL): Readonly<Record<string, string>> {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> })
    .scripts;
}

/** The command lines of the README's `sh` blocks, as words, comments left out. */
const README_LINES: readonly string[][] = [
  ...readFileSync(new URL('../README.md', import.meta.url), 'utf8').matchAll(
    /```sh\n([\s\S]*?)```/g,
  ),
]
  .flatMap((block) => (block[1] ?? '').split('\n'))
  .map((line) => line.replace(/#.*/, '').trim())
  .filter((line) => line !== '')
  .map((line) => line.split(/\s+/));

/**
 * The arguments the CLI receives from a README line, or `undefined` when the line runs something
 * else. pnpm appends the words after the script name, its `--` included, to the script; the
 * package's `start` is the CLI and the root's ends in the package's (checked below).
 */
function cliArguments(words: readonly string[]): string[] | undefined {
  if (words[0] === 'node') {
    return words[1] === 'apps/pilot-e2e/dist/cli.js' ? words.slice(2) : undefined;
  }
  const start = words.indexOf('start');
  if (words[0] !== 'pnpm' || start < 0) return undefined;
  expect([[], ['--filter', '@duro/pilot-e2e']], words.join(' ')).toContainEqual(
    words.slice(1, start),
  );
  return words.slice(start + 1);
}

/** How this test can run pnpm: the one running the tests, else the one on the PATH. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  return execPath?.includes('pnpm') ? [process.execPath, [execPath]] : ['pnpm', []];
}

describe("the README's pilot-e2e commands", () => {
  const commands = README_LINES.flatMap((words) => {
    const args = cliArguments(words);
    return args === undefined ? [] : [{ line: words.join(' '), words, args }];
  });

  it('every command line of the README is one the CLI accepts, as pnpm hands it on', () => {
    expect(scripts(new URL('../package.json', import.meta.url)).start).toBe('node dist/cli.js');
    expect(scripts(new URL('../../../package.json', import.meta.url)).start).toMatch(
      /pnpm --filter @duro\/pilot-e2e start$/,
    );
    const parsed = new Map(commands.map(({ line, args }) => [line, parseCliOptions(args)]));
    expect(parsed.get('pnpm start -- --report report.json')).toMatchObject({
      preset: 'default',
      reportFile: 'report.json',
    });
    expect(
      parsed.get('pnpm --filter @duro/pilot-e2e start -- --preset soak --report soak.json'),
    ).toMatchObject({ preset: 'soak', reportFile: 'soak.json' });
    expect(
      parsed.get(
        'node apps/pilot-e2e/dist/cli.js --mixed-fleet --workers 4 --sessions 100 --duration 3m',
      )?.mixedFleet,
    ).toBe(true);
  });

  it("pnpm hands the flags of the README's filtered start to the CLI", () => {
    // `--help` after the README's flags: the CLI reads every flag before it prints the usage
    // and stops, so the soak run itself does not start.
    const soak = commands.find(({ words }) => words.includes('--filter'));
    expect(soak, 'the README has a pnpm --filter ... start line').toBeDefined();
    const [command, prefix] = pnpmCommand();
    const run = spawnSync(command, [...prefix, ...(soak?.words.slice(1) ?? []), '--help'], {
      cwd: REPOSITORY,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('Usage: pilot-e2e');
  });
});
