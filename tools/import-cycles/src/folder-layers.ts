import type { ImportGraph } from './import-graph.js';

/**
 * Which top-level folders of a package's `src` each folder may import, besides itself; `(root)`
 * stands for the files at the root of `src`. Those files may import anything; a folder not
 * listed is not checked.
 */
export type FolderLayers = Readonly<Record<string, readonly string[]>>;

/** The layers of each workspace package that has them, keyed by its path from the repo root. */
export const WORKSPACE_LAYERS: Readonly<Record<string, FolderLayers>> = {
  'packages/core/src': {
    model: [],
    provider: ['model'],
    client: ['model', 'provider'],
    memory: ['model', 'provider'],
    runtime: ['model', 'provider', 'client'],
    validation: ['model', 'provider', 'client', 'runtime', 'memory'],
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

function topFolder(module: string): string | null {
  const slash = module.indexOf('/');
  return slash === -1 ? null : module.slice(0, slash);
}

/** Each import in `graph` that crosses from one folder into another it may not import. */
export function layerViolations(graph: ImportGraph, layers: FolderLayers): string[] {
  const violations: string[] = [];
  for (const [module, targets] of graph) {
    const from = topFolder(module);
    const allowed = from === null ? undefined : layers[from];
    if (from === null || allowed === undefined) continue;
    for (const target of targets) {
      const to = topFolder(target) ?? '(root)';
      if (to !== from && !allowed.includes(to)) violations.push(`${module} -> ${target}`);
    }
  }
  return violations;
}
