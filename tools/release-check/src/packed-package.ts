import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from './command-runner.js';

/** A workspace package that is published to npm, packed into a tarball. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  readonly directory: string;
  readonly tarball: string;
  /** Every path in the tarball, relative to the package root (without `package/`). */
  readonly files: readonly string[];
  readonly manifest: PackageManifest;
}

/** The parts of a `package.json` the check reads. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly bin?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
}

/** The directories under `packages/` whose package is not private. */
export async function publishableDirectories(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, 'packages'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const directory = join(root, 'packages', entry.name);
    const manifest = await readManifest(directory).catch(() => null);
    if (manifest && manifest.private !== true) found.push(directory);
  }
  return found.sort();
}

export async function readManifest(directory: string): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * Packs `directory` with `pnpm pack` (which turns `workspace:` ranges into versions) into
 * `destination`, and lists the tarball and its manifest as packed.
 */
export async function packPackage(directory: string, destination: string): Promise<PackedPackage> {
  const before = new Set(await readdir(destination));
  await runCommand('pnpm', ['pack', '--pack-destination', destination], directory);
  const created = (await readdir(destination)).filter((name) => !before.has(name));
  const [name] = created;
  if (created.length !== 1 || name === undefined) {
    throw new Error(`pnpm pack in ${directory} made ${created.length} files, expected one tarball`);
  }
  const tarball = join(destination, name);
  const listing = await runCommand('tar', ['-tzf', tarball], destination);
  const files = listing.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
  const packedManifest = await runCommand(
    'tar',
    ['-xzOf', tarball, 'package/package.json'],
    destination,
  );
  const manifest = JSON.parse(packedManifest.stdout) as PackageManifest;
  return { name: manifest.name, version: manifest.version, directory, tarball, files, manifest };
}

/** Files that belong to tests: `*.test.*`, `*.test-d.*`, `*.test-support.*`, `*.fixture.*`, fixtures. */
const TEST_CODE = /\.test[.-]|\.fixture\.|\/__fixtures__\//;

/**
 * What is wrong with a packed package: an `exports` target, a type declaration or a `bin`
 * missing from the tarball, no README, a `workspace:` range left in its dependencies, or test
 * files shipped. An empty list means the tarball is complete.
 */
export function tarballProblems(packed: PackedPackage): string[] {
  const problems: string[] = [];
  const has = (path: string) => packed.files.includes(path.replace(/^\.\//, ''));
  for (const [subpath, target] of Object.entries(packed.manifest.exports ?? {})) {
    const targets = typeof target === 'string' ? { default: target } : target;
    if (subpath !== './package.json' && targets.types === undefined) {
      problems.push(`export '${subpath}' has no "types" condition`);
    }
    for (const [condition, path] of Object.entries(targets)) {
      if (!has(path))
        problems.push(
          `export '${subpath}' (${condition}) points at ${path}, missing from the tarball`,
        );
    }
  }
  for (const [command, path] of Object.entries(packed.manifest.bin ?? {})) {
    if (!has(path)) problems.push(`bin '${command}' points at ${path}, missing from the tarball`);
  }
  if (!has('README.md')) problems.push('README.md is missing from the tarball');
  for (const [dependency, range] of Object.entries(packed.manifest.dependencies ?? {})) {
    if (range.startsWith('workspace:'))
      problems.push(`dependency ${dependency} kept the range '${range}'`);
  }
  for (const file of packed.files) {
    if (TEST_CODE.test(file)) problems.push(`test code shipped: ${file}`);
  }
  return problems.map((problem) => `${packed.name}: ${problem}`);
}
