/**
 * Writes `migrations/NNNN_diff.md`: for each duroxide-track migration that creates, replaces or
 * drops a function, the catalog before and after it (tables, columns, indexes, triggers) and each
 * changed function in full with `-`/`+` lines, taken from a real PostgreSQL. Run as
 * `duro-migration-diff` (writes) or `duro-migration-diff --check` (fails when stale).
 */
export { generateDiffs, type DiffDocument } from './generate-diffs.js';
export {
  snapshotCatalog,
  type CatalogSnapshot,
  type FunctionDefinition,
} from './catalog-snapshot.js';
export { diffLines, hasChanges, type DiffLine } from './line-diff.js';
export { functionChanges, renderDiffMarkdown, type MigrationStep } from './render-diff-markdown.js';
