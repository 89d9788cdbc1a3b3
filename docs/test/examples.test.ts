import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, inject, it } from 'vitest';
import '@duro/test-postgres/vitest';
import { withDatabase } from './example-database.js';

const examplesDir = fileURLToPath(new URL('../examples/', import.meta.url));

// The examples the guide's pages include, except the testing page's `*.test.ts` files, which
// vitest runs as the tests they are.
const scripts = (await readdir(examplesDir))
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .sort();

describe('the guide examples', () => {
  for (const name of scripts) {
    it(`${name} runs to its end as the page shows it`, async () => {
      const path = join(examplesDir, name);
      const source = await readFile(path, 'utf8');
      const run = () => import(pathToFileURL(path).href);
      // An example that reads DATABASE_URL gets a database of its own, as a reader's would be.
      if (source.includes('DATABASE_URL')) {
        await withDatabase(inject('duroDatabaseUrl'), name, async (url) => {
          process.env.DATABASE_URL = url;
          try {
            await run();
          } finally {
            delete process.env.DATABASE_URL;
          }
        });
      } else {
        await run();
      }
    });
  }
});
