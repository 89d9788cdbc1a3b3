import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCycles, layerViolations, readImportGraph } from '../src/index.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A source tree with `files` (path to contents). */
async function tree(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'import-cycles-'));
  folders.push(folder);
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(join(folder, path, '..'), { recursive: true });
    await writeFile(join(folder, path), contents);
  }
  return folder;
}

describe('import cycles', () => {
  it('are found through type-only imports and re-exports, across folders', async () => {
    const folder = await tree({
      'a/one.ts': "import type { Two } from '../b/two.js';\nexport type One = Two;\n",
      'b/two.ts': "export { three } from './three.js';\nexport type Two = number;\n",
      'b/three.ts': "import { type One } from '../a/one.js';\nexport const three: One = 3;\n",
      'leaf.ts': 'export const leaf = 1;\n',
    });
    expect(importCycles(await readImportGraph(folder))).toEqual([
      ['a/one.ts', 'b/three.ts', 'b/two.ts'],
    ]);
  });

  it('are not found where imports only go one way, and tests do not count', async () => {
    const folder = await tree({
      'top.ts': "import { leaf } from './leaf.js';\nexport const top = leaf;\n",
      'leaf.ts': 'export const leaf = 1;\n',
      'leaf.test.ts': "import { top } from './top.js';\nvoid top;\n",
      'dep.ts': "import pg from 'pg';\nexport default pg;\n",
    });
    const graph = await readImportGraph(folder);
    expect(importCycles(graph)).toEqual([]);
    expect(graph.get('top.ts')).toEqual(['leaf.ts']);
    expect(graph.has('leaf.test.ts')).toBe(false);
  });
});

describe('folder layers', () => {
  it('name each import into a folder the importing folder may not use, and allow the rest', async () => {
    const folder = await tree({
      'index.ts': "export * from './client/client.js';\nexport * from './runtime/runtime.js';\n",
      'model/value.ts': 'export const value = 1;\n',
      'client/client.ts':
        "import { run } from '../runtime/runtime.js';\nexport const client = run;\n",
      'runtime/runtime.ts':
        "import { value } from '../model/value.js';\nexport const run = value;\n",
    });
    const layers = { model: [], client: ['model'], runtime: ['model', 'client'] };
    expect(layerViolations(await readImportGraph(folder), layers)).toEqual([
      'client/client.ts -> runtime/runtime.ts',
    ]);
  });

  it('hold inside a folder whose own folders are layered, leaving imports across it to the outer layers', async () => {
    const folder = await tree({
      'model/value.ts': 'export const value = 1;\n',
      'runtime/options.ts':
        "import { value } from '../model/value.js';\nexport const options = value;\n",
      'runtime/replay/engine.ts':
        "import { options } from '../options.js';\nimport { turn } from '../turn/turn.js';\nexport const engine = options + turn;\n",
      'runtime/turn/turn.ts':
        "import { value } from '../../model/value.js';\nexport const turn = value;\n",
      'runtime/dispatch/dispatcher.ts':
        "import { engine } from '../replay/engine.js';\nimport { turn } from '../turn/turn.js';\nexport const dispatcher = engine + turn;\n",
    });
    const layers = { replay: ['(root)'], turn: ['replay', '(root)'], dispatch: ['replay', 'turn'] };
    expect(layerViolations(await readImportGraph(folder), layers, 'runtime')).toEqual([
      'runtime/replay/engine.ts -> runtime/turn/turn.ts',
    ]);
  });
});
