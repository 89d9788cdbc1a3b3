import os from 'node:os';
import pg from 'pg';

/** What a benchmark ran on, printed with its figures. */
export interface BenchEnvironment {
  /** `SELECT version()`. */
  readonly postgresVersion: string;
  /** The durability settings that decide what a commit costs. */
  readonly settings: Readonly<Record<string, string>>;
  readonly cpuCount: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
}

const SETTINGS = ['synchronous_commit', 'fsync', 'full_page_writes', 'wal_level', 'shared_buffers'];

/** Reads the server's version and settings, and describes this machine. */
export async function readBenchEnvironment(url: string): Promise<BenchEnvironment> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const version = await client.query<{ version: string }>('SELECT version()');
    const settings = await client.query<{ name: string; setting: string; unit: string | null }>(
      'SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1) ORDER BY name',
      [SETTINGS],
    );
    return {
      postgresVersion: version.rows[0]?.version ?? 'unknown',
      settings: Object.fromEntries(
        settings.rows.map((r) => [
          r.name,
          r.unit === null ? r.setting : `${r.setting} × ${r.unit}`,
        ]),
      ),
      cpuCount: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
      node: process.version,
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
    };
  } finally {
    await client.end();
  }
}
