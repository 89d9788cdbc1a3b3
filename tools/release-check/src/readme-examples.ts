import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The comment that marks the next `ts` code block of a README as checked by the release check. */
export const EXAMPLE_MARKER = '<!-- checked by pnpm release:check -->';

/** A README example, as a TypeScript module. */
export interface ReadmeExample {
  /** A file name for it: the package folder and its position, e.g. `core-1.ts`. */
  readonly fileName: string;
  readonly source: string;
}

/**
 * The code of every `ts` block that follows {@link EXAMPLE_MARKER} in the README of `directory`.
 * @throws {Error} when the README marks no example (a publishable package must have one).
 */
export async function readReadmeExamples(
  directory: string,
  label: string,
): Promise<ReadmeExample[]> {
  const readme = await readFile(join(directory, 'README.md'), 'utf8');
  const examples: ReadmeExample[] = [];
  const pattern = new RegExp(`${escape(EXAMPLE_MARKER)}\\s*\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\``, 'g');
  for (const match of readme.matchAll(pattern)) {
    examples.push({
      fileName: `${label}-${examples.length + 1}.ts`,
      source: `${match[1] ?? ''}\n`,
    });
  }
  if (examples.length === 0) {
    throw new Error(`${join(directory, 'README.md')} has no example marked '${EXAMPLE_MARKER}'`);
  }
  return examples;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
