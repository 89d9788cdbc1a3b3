#!/usr/bin/env node
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderReference } from './render-reference.js';

const USAGE = `usage: duro-api-reference [--check]

  (no flag)  write docs/reference/ from the TSDoc of the published packages; under CI=true a
             stale reference fails instead of being rewritten
  --check    exit 1 when docs/reference/ differs from what the sources give

Either way, exit 1 when an exported symbol has no documentation or a {@link} is broken.`;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const referenceDir = join(repoRoot, 'docs/reference');

async function readCurrent(): Promise<Map<string, string>> {
  const current = new Map<string, string>();
  const entries = await readdir(referenceDir, { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    current.set(relative(referenceDir, path), await readFile(path, 'utf8'));
  }
  return current;
}

function differences(
  expected: ReadonlyMap<string, string>,
  current: ReadonlyMap<string, string>,
): string[] {
  const names = new Set([...expected.keys(), ...current.keys()]);
  return [...names]
    .filter((name) => expected.get(name) !== current.get(name))
    .sort()
    .map((name) => {
      if (!current.has(name)) return `missing ${name}`;
      if (!expected.has(name)) return `left over ${name}`;
      return `stale ${name}`;
    });
}

async function main(args: readonly string[]): Promise<number> {
  const check = args.includes('--check');
  if (args.some((arg) => arg !== '--check')) {
    console.error(USAGE);
    return 2;
  }
  const { pages, problems } = await renderReference(repoRoot);
  const code = problems.length === 0 ? 0 : 1;
  if (code !== 0) {
    console.error(problems.join('\n'));
    console.error(
      `${problems.length} problem(s) in the TSDoc of the published packages: document every exported symbol`,
    );
  }
  const stale = differences(pages, await readCurrent());
  if (stale.length === 0) return code;
  const shown = relative(repoRoot, referenceDir);
  if (check || process.env.CI === 'true') {
    console.error(stale.map((line) => `  ${line}`).join('\n'));
    console.error(
      `${shown}/ is stale: run \`pnpm --filter @duro/docs reference\` and commit the result`,
    );
    return 1;
  }
  await rm(referenceDir, { recursive: true, force: true });
  for (const [name, text] of pages) {
    const path = join(referenceDir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
  console.log(`updated ${shown}/ (${stale.length} file(s) changed)`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
