#!/usr/bin/env node
import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, readImportGraph } from './import-graph.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The `src` folder of every workspace package (packages, apps and tools). */
async function sourceFolders(): Promise<string[]> {
  const folders: string[] = [];
  for (const group of ['packages', 'apps', 'tools']) {
    const entries = await readdir(join(repoRoot, group), { withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const src = join(repoRoot, group, entry.name, 'src');
      if (
        await readdir(src).then(
          () => true,
          () => false,
        )
      )
        folders.push(src);
    }
  }
  return folders.sort();
}

let failed = false;
for (const folder of await sourceFolders()) {
  for (const cycle of importCycles(await readImportGraph(folder))) {
    failed = true;
    console.error(`import cycle in ${relative(repoRoot, folder)}: ${cycle.join(' <-> ')}`);
  }
}
if (failed) {
  console.error('Break each cycle: declare what the modules share in a leaf module both import.');
  process.exitCode = 1;
}
