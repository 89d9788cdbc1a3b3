import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import the package by its name; run them against the source, not a stale dist/.
  // (The conformance program runs in a process of its own, on the built package.)
  resolve: {
    alias: { '@duro/duroxide': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: [fileURLToPath(import.meta.resolve('@duro/test-postgres/global-setup'))],
  },
});
