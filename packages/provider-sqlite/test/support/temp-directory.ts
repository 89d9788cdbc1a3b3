import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * A folder of its own for this test file's databases, under the OS temp folder; removed after
 * the file's tests when they all passed, kept (and its path printed) when one failed.
 */
export function useTempDirectory(name: string): string {
  const directory = mkdtempSync(join(tmpdir(), `duro-sqlite-${name}-`));
  let failed = false;
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') failed = true;
  });
  afterAll(() => {
    if (failed) console.warn(`kept ${directory} for inspection`);
    else rmSync(directory, { recursive: true, force: true });
  });
  return directory;
}
