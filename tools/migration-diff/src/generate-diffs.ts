import { randomBytes } from 'node:crypto';
import { DUROXIDE_MIGRATION_VERSIONS, runMigrations } from '@duro/provider-postgres';
import pg from 'pg';
import { snapshotCatalog, type CatalogSnapshot } from './catalog-snapshot.js';
import { functionChanges, renderDiffMarkdown } from './render-diff-markdown.js';

/** A diff document to write: `NNNN_diff.md` and its content. */
export interface DiffDocument {
  readonly fileName: string;
  readonly markdown: string;
}

const EMPTY: CatalogSnapshot = { relations: [], functions: new Map() };

/**
 * Migrates a scratch schema one duroxide-track version at a time and returns a diff document
 * for every version that creates, replaces or drops a function. The schema is dropped after.
 */
export async function generateDiffs(databaseUrl: string): Promise<DiffDocument[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const schema = `duro_diff_${randomBytes(4).toString('hex')}`;
  try {
    const documents: DiffDocument[] = [];
    let before = EMPTY;
    let previousVersion = 0;
    for (const version of DUROXIDE_MIGRATION_VERSIONS) {
      const report = await runMigrations(client, {
        schema,
        extensions: false,
        targetVersion: version,
      });
      const applied = report.applied[0];
      if (applied?.version !== version) {
        throw new Error(
          `expected the runner to apply version ${version}, it applied ${applied?.version ?? 'nothing'}`,
        );
      }
      const after = await snapshotCatalog(client, schema);
      const step = { version, name: applied.name, previousVersion, before, after };
      const functions = functionChanges(step);
      if (functions.length > 0) {
        documents.push({
          fileName: `${String(version).padStart(4, '0')}_diff.md`,
          markdown: renderDiffMarkdown(step, functions),
        });
      }
      before = after;
      previousVersion = version;
    }
    return documents;
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}
