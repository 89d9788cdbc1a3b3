/**
 * Finds import cycles in a workspace package's sources, type-only imports included
 * (`import-x/no-cycle` leaves those out).
 * @packageDocumentation
 */
export { importCycles, readImportGraph, type ImportGraph } from './import-graph.js';
