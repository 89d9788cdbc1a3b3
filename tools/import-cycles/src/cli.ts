#!/usr/bin/env node
import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layerViolations, WORKSPACE_LAYERS } from './folder-layers.js';
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

let cyclesFound = false;
let layersBroken = false;
for (const folder of await sourceFolders()) {
  const graph = await readImportGraph(folder);
  const name = relative(repoRoot, folder);
  for (const cycle of importCycles(graph)) {
    cyclesFound = true;
    console.error(`import cycle in ${name}: ${cycle.join(' <-> ')}`);
  }
  for (const [layered, layers] of Object.entries(WORKSPACE_LAYERS)) {
    if (layered !== name && !layered.startsWith(`${name}/`)) continue;
    for (const violation of layerViolations(graph, layers, layered.slice(name.length + 1))) {
      layersBroken = true;
      console.error(`import against the layers of ${layered}: ${violation}`);
    }
  }
}
if (cyclesFound) {
  console.error('Break each cycle: declare what the modules share in a leaf module both import.');
}
if (layersBroken) {
  console.error('Each folder imports only the folders its layer lists (tools/import-cycles).');
}
if (cyclesFound || layersBroken) process.exitCode = 1;
