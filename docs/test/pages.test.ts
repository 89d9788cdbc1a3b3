import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docsDir = fileURLToPath(new URL('../', import.meta.url));

async function guidePages(): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const entry of await readdir(docsDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(docsDir, path);
    // The generated API reference shows signatures, not examples.
    if (!entry.isFile() || !name.endsWith('.md') || /^(reference|node_modules)\//.test(name))
      continue;
    pages.set(name, await readFile(path, 'utf8'));
  }
  return pages;
}

const INCLUDE = /^<<< @\/examples\/([\w.-]+\.ts)(?:\{[^}]*\})?$/gm;

describe('the guide pages', () => {
  it('show TypeScript only through included example files, which the tests run', async () => {
    const inline: string[] = [];
    for (const [name, text] of await guidePages()) {
      for (const match of text.matchAll(/^```(ts|typescript|js|javascript|tsx)\b/gm)) {
        inline.push(`${name}: a \`\`\`${match[1]} block`);
      }
    }
    expect(inline, 'write the code as docs/examples/<page>.ts and include it').toEqual([]);
  });

  it('include only example files that exist, and every example is on a page', async () => {
    const examples = new Set(
      (await readdir(join(docsDir, 'examples'))).filter((n) => n.endsWith('.ts')),
    );
    const included = new Set<string>();
    for (const text of (await guidePages()).values()) {
      for (const match of text.matchAll(INCLUDE)) included.add(match[1] ?? '');
    }
    expect(
      [...included].filter((name) => !examples.has(name)),
      'missing examples',
    ).toEqual([]);
    expect(
      [...examples].filter((name) => !included.has(name)),
      'examples on no page',
    ).toEqual([]);
  });

  it('fail the site build on a dead link, and are searchable offline', async () => {
    const { default: config } = await import('../.vitepress/config.js');
    expect(config.ignoreDeadLinks ?? false).toBe(false);
    expect(config.themeConfig?.search?.provider).toBe('local');
  });
});
