import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // examples/*.test.ts are the testing page's examples: they run as the tests they show.
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: [fileURLToPath(import.meta.resolve('@duro/test-postgres/global-setup'))],
  },
});
