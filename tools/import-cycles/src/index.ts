/**
 * Finds import cycles in a workspace package's sources, type-only imports included
 * (`import-x/no-cycle` leaves those out), and imports that cross a package's folder layers.
 * @packageDocumentation
 */
export { importCycles, readImportGraph, type ImportGraph } from './import-graph.js';
export { layerViolations, WORKSPACE_LAYERS, type FolderLayers } from './folder-layers.js';
