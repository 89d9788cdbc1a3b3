import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: [
      fileURLToPath(import.meta.resolve('@duro/test-postgres/global-setup')),
      './test/support/chromium-setup.ts',
    ],
  },
});
