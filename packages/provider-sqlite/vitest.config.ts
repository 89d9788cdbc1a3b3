import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import the package by its name; run them against the source, not a stale dist/.
  resolve: {
    alias: {
      '@duro/provider-sqlite/validation': fileURLToPath(
        new URL('./src/validation/index.ts', import.meta.url),
      ),
      '@duro/provider-sqlite': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
