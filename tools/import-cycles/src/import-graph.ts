import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The modules of one source tree and, for each, the modules of the tree it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Whether a file is source the package compiles (not a test, fixture or declaration). */
function isSource(file: string): boolean {
  return (
    /\.(ts|mts)$/.test(file) &&
    !/\.d\.ts$/.test(file) &&
    !/\.test(-d)?\.ts$|\.test-support\.ts$|\.fixture\.ts$/.test(file)
  );
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && isSource(entry.name))
    .filter((entry) => !entry.parentPath.includes('__fixtures__'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The file a relative specifier names, written `./x.js` for `./x.ts` as ESM sources do. */
function importedFile(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target.replace(/\.js$/, '.ts'), target, `${target}.ts`]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/**
 * Reads every source file under `folder` and the relative imports and re-exports between them,
 * `import type` included: a cycle through type-only imports still ties the modules' meanings
 * together. Paths in the graph are relative to `folder`.
 */
export async function readImportGraph(folder: string): Promise<ImportGraph> {
  const files = await sourceFiles(folder);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(await readFile(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const target = importedFile(file, fileName, known);
      if (target !== null && target !== file) targets.add(relative(folder, target));
    }
    graph.set(relative(folder, file), [...targets].sort());
  }
  return graph;
}

/**
 * The cycles of `graph`: each group of modules that import one another (a strongly connected
 * component of more than one module), its modules sorted, the groups in order of their first
 * module.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (module: string): void => {
    index.set(module, next);
    lowest.set(module, next);
    next += 1;
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(module, Math.min(lowest.get(module) ?? 0, lowest.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowest.set(module, Math.min(lowest.get(module) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowest.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== module);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}
