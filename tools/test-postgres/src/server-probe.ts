import pg from 'pg';

/** Connects once and returns the server's version string, so a route proves the server answers. */
export async function readServerVersion(url: string, connectTimeoutMs = 5000): Promise<string> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  await client.connect();
  try {
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    return result.rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}
