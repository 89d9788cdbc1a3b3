import { access, readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

async function readmes(): Promise<string[]> {
  const found = ['README.md', 'CONTRIBUTING.md', 'migrations/README.md'];
  for (const folder of ['packages', 'apps', 'tools']) {
    for (const entry of await readdir(join(repoRoot, folder), { withFileTypes: true })) {
      if (entry.isDirectory()) found.push(`${folder}/${entry.name}/README.md`);
    }
  }
  return found;
}

// Links inside the site are checked by its build (VitePress fails on a dead link).
it('the READMEs link only to files and folders that exist in the repository', async () => {
  const dead: string[] = [];
  for (const readme of await readmes()) {
    const path = join(repoRoot, readme);
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text === null) continue;
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = (match[1] ?? '').split('#')[0] ?? '';
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      const resolved = join(dirname(path), target);
      await access(resolved).catch(() => dead.push(`${readme}: ${relative(repoRoot, resolved)}`));
    }
  }
  expect(dead).toEqual([]);
});
