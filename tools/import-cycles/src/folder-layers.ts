import type { ImportGraph } from './import-graph.js';

/**
 * Which folders of one folder (a package's `src`, or a folder inside it) each of its folders may
 * import, besides itself; `(root)` stands for the files directly in that folder. Those files may
 * import anything; a folder not listed is not checked.
 */
export type FolderLayers = Readonly<Record<string, readonly string[]>>;

/**
 * The layers of each folder that has them, keyed by its path from the repo root: a package's
 * `src`, or a folder inside it whose own folders are layered too.
 */
export const WORKSPACE_LAYERS: Readonly<Record<string, FolderLayers>> = {
  'packages/core/src': {
    model: [],
    provider: ['model'],
    client: ['model', 'provider'],
    memory: ['model', 'provider'],
    runtime: ['model', 'provider', 'client'],
    validation: ['model', 'provider', 'client', 'runtime', 'memory'],
  },
  'packages/core/src/runtime': {
    replay: ['(root)'],
    turn: ['replay', '(root)'],
    dispatch: ['replay', 'turn', '(root)'],
  },
  'packages/provider-postgres/src': {
    migrations: [],
    database: ['migrations'],
    connection: ['database', 'migrations', '(root)'],
    operations: ['database', '(root)'],
    wakeups: ['operations', '(root)'],
    inspection: ['database', 'migrations', 'connection'],
    cli: ['database', 'migrations', 'connection', 'inspection', '(root)'],
    validation: ['(root)'],
  },
  'packages/provider-sqlite/src': {
    database: [],
    schema: ['database'],
    operations: ['database'],
    validation: ['(root)'],
  },
};

/** The first folder of `module`'s path below `within` (a folder path, `''` for `src`). */
function topFolder(module: string, within: string): string | null {
  const rest = within === '' ? module : module.slice(within.length + 1);
  const slash = rest.indexOf('/');
  return slash === -1 ? null : rest.slice(0, slash);
}

function isInside(module: string, within: string): boolean {
  return within === '' || module.startsWith(`${within}/`);
}

/**
 * Each import in `graph` that crosses from one folder of `within` (a folder path below `src`;
 * `''`, the default, for `src` itself) into another it may not import. Imports from or to
 * modules outside `within` are left to the layers of the folders around it.
 */
export function layerViolations(graph: ImportGraph, layers: FolderLayers, within = ''): string[] {
  const violations: string[] = [];
  for (const [module, targets] of graph) {
    if (!isInside(module, within)) continue;
    const from = topFolder(module, within);
    const allowed = from === null ? undefined : layers[from];
    if (from === null || allowed === undefined) continue;
    for (const target of targets) {
      if (!isInside(target, within)) continue;
      const to = topFolder(target, within) ?? '(root)';
      if (to !== from && !allowed.includes(to)) violations.push(`${module} -> ${target}`);
    }
  }
  return violations;
}
