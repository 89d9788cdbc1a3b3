import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresProvider, SqliteProvider } from '@duro/duroxide';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { afterAll } from 'vitest';

/** One store the drop-in runs on. */
export interface Store {
  /** Shown in test titles. */
  readonly label: string;
  /** The environment a duroxide-node program (test/programs) needs to open this store. */
  programEnvironment(): Record<string, string>;
  /** A provider on this store; closed after the file's last test. */
  open(): Promise<PostgresProvider | SqliteProvider>;
}

/**
 * The stores every drop-in test runs on: this file's schema of the run's PostgreSQL, and a
 * SQLite file in a folder of its own (removed after the file's tests).
 */
export function useStores(): readonly Store[] {
  const schema = useTestSchema();
  const directory = mkdtempSync(join(tmpdir(), 'duro-duroxide-'));
  const open: (PostgresProvider | SqliteProvider)[] = [];
  let files = 0;
  afterAll(async () => {
    await Promise.all(open.map((provider) => provider.close()));
    rmSync(directory, { recursive: true, force: true });
  });
  const opened = <P extends PostgresProvider | SqliteProvider>(provider: P): P => {
    open.push(provider);
    return provider;
  };
  return [
    {
      label: 'PostgreSQL',
      programEnvironment: () => ({ DURO_STORE: schema.databaseUrl, DURO_SCHEMA: schema.name }),
      open: async () =>
        opened(await PostgresProvider.connectWithSchema(schema.databaseUrl, schema.name)),
    },
    {
      label: 'a SQLite file',
      programEnvironment: () => ({ DURO_STORE: join(directory, `program-${++files}.db`) }),
      open: async () => opened(await SqliteProvider.open(join(directory, `store-${++files}.db`))),
    },
  ];
}
