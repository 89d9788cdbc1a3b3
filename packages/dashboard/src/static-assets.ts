import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { sendText, writeHead } from './http-response.js';

const STATIC_DIR = fileURLToPath(new URL('../static/', import.meta.url));
// Both relative to the package root, from src/ (tests) and dist/ (the package) alike.
const SCRIPT_DIR = fileURLToPath(new URL('../dist/public/browser/', import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/**
 * Serves the page and its files: `index.html` and `dashboard.css` from `static/`, the compiled
 * browser modules from `dist/public/browser/`. Only plain file names are served (no folders, no
 * dots in front), so no path leaves those two folders.
 */
export async function serveAsset(response: ServerResponse, path: string): Promise<boolean> {
  const file = path === '' ? 'index.html' : path;
  const script = /^assets\/([a-z][a-z0-9-]*\.js)$/.exec(file)?.[1];
  const location =
    script !== undefined
      ? `${SCRIPT_DIR}${script}`
      : file === 'index.html' || file === 'dashboard.css'
        ? `${STATIC_DIR}${file}`
        : null;
  if (location === null) return false;
  let body: Buffer;
  try {
    body = await readFile(location);
  } catch {
    sendText(response, 404, 'not found');
    return true;
  }
  const extension = /\.[a-z]+$/.exec(location)?.[0] ?? '';
  writeHead(response, 200, { 'content-type': TYPES[extension] ?? 'application/octet-stream' });
  response.end(body);
  return true;
}
