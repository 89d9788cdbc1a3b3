import { randomBytes } from 'node:crypto';
import {
  Client,
  ManagementClient,
  ProviderError,
  Runtime,
  type LogFields,
  type Logger,
  type OrchestrationContext,
} from '@duro/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessTokenError,
  DEFAULT_ENTRA_AUDIENCE,
  PostgresProvider,
  type PostgresEntraOptions,
} from '../src/index.js';
import { echoes } from './support/fan-out-runtime.js';
import { RotatingPasswordCredential } from './support/rotating-password-credential.js';
import { startTlsPostgres, type TlsPostgres } from './support/tls-postgres.js';

let server: TlsPostgres;
const providers: PostgresProvider[] = [];

beforeAll(async () => {
  server = await startTlsPostgres();
});

afterAll(async () => {
  for (const provider of providers) await provider.close();
  await server.stop();
});

/** A logger that keeps the warnings it is given. */
function recordingLogger(): Logger & { warnings: { fields: LogFields; message: string }[] } {
  const warnings: { fields: LogFields; message: string }[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    debug: ignore,
    info: ignore,
    error: ignore,
    warn: (fields, message) => warnings.push({ fields, message }),
  };
}

async function newCredential(lifetimeMs?: number): Promise<RotatingPasswordCredential> {
  const role = `duro_entra_${randomBytes(4).toString('hex')}`;
  const credential = new RotatingPasswordCredential((sql) => server.query(sql), role, lifetimeMs);
  await credential.createRole();
  return credential;
}

/** A provider on a new schema that logs in as the credential's role, verifying the test CA. */
async function entraProvider(
  credential: RotatingPasswordCredential,
  options: PostgresEntraOptions = {},
): Promise<PostgresProvider> {
  const provider = await PostgresProvider.connectWithSchemaAndEntra(
    'localhost',
    server.port,
    'postgres',
    credential.role,
    `duro_entra_${randomBytes(4).toString('hex')}`,
    {
      ...(options.getToken === undefined ? { credential } : {}),
      ssl: { ca: server.certificates.ca.pem },
      maxConnections: 2,
      refreshIntervalMs: 50,
      logger: recordingLogger(),
      ...options,
    },
  );
  providers.push(provider);
  return provider;
}

/** Ends every session of `role` (as a server would after a restart), so new logins are needed. */
async function dropSessions(role: string): Promise<void> {
  await server.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [
    role,
  ]);
}

/** Resolves once `condition` holds, checking every 20 ms. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Runs `call` until it succeeds; each failure must be a retryable `ProviderError`. */
async function eventually<T>(call: () => Promise<T>): Promise<{ value: T; failures: Error[] }> {
  const failures: Error[] = [];
  for (;;) {
    try {
      return { value: await call(), failures };
    } catch (error) {
      if (!ProviderError.isInstance(error) || !error.retryable) throw error;
      failures.push(error);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const activity = (instance: string) =>
  ({
    type: 'ActivityExecute',
    instance,
    executionId: 1,
    id: 1,
    name: 'Work',
    input: '{}',
  }) as const;

describe('connecting with Entra ID access tokens', () => {
  it('logs in with the credential token over verify-full TLS, asking for the Azure audience by default', async () => {
    const credential = await newCredential();
    const applicationName = `duro_entra_${randomBytes(4).toString('hex')}`;
    const provider = await entraProvider(credential, { applicationName });
    expect((await provider.getQueueDepths()).workerQueue).toBe(0);
    expect(credential.scopes[0]).toBe(DEFAULT_ENTRA_AUDIENCE);
    const sessions = await server.query<{ ssl: boolean; usename: string }>(
      `SELECT s.ssl, a.usename FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
        WHERE a.application_name = $1`,
      [applicationName],
    );
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((row) => row.ssl && row.usename === credential.role)).toBe(true);
  });

  it('after a rotation, new connections log in with the new token and work in progress completes', async () => {
    const credential = await newCredential();
    const provider = await entraProvider(credential);
    await provider.enqueueForWorker(activity('rotated'));
    const fetched = await provider.fetchWorkItem(60_000, 0, null, { type: 'DefaultOnly' });
    expect(fetched).not.toBeNull();

    await credential.rotate();
    await credential.servedCurrent();
    await dropSessions(credential.role);
    // The old password no longer logs in: a call that succeeds now opened a connection with
    // the new token.
    await eventually(() => provider.getQueueDepths());
    await eventually(() => provider.ackWorkItem(fetched!.lockToken, null));
    expect(await provider.fetchWorkItem(60_000, 0, null, { type: 'DefaultOnly' })).toBeNull();
    expect((await provider.getQueueDepths()).workerQueue).toBe(0);
  });

  it('a credential that fails for a while is retried with backoff, and the provider recovers without losing or repeating work', async () => {
    const credential = await newCredential();
    const logger = recordingLogger();
    const provider = await entraProvider(credential, { logger });
    await provider.enqueueForWorker(activity('outage'));
    const fetched = await provider.fetchWorkItem(60_000, 0, null, { type: 'DefaultOnly' });
    expect(fetched).not.toBeNull();

    credential.failNext(3);
    await credential.rotate();
    await dropSessions(credential.role);
    // Until the credential answers again, new logins use the old token and are refused, which
    // is a retryable error; then the refreshed token logs in.
    const { failures } = await eventually(() => provider.ackWorkItem(fetched!.lockToken, null));
    await credential.servedCurrent();

    expect(logger.warnings.map((warning) => warning.fields.failures)).toEqual([1, 2, 3]);
    expect(logger.warnings[0]?.message).toMatch(/refreshing the Entra ID access token failed/);
    expect(logger.warnings[0]?.fields.error).toMatch(/token service unavailable/);
    expect(failures.some((failure) => /refused the Entra ID login/.test(failure.message))).toBe(
      true,
    );
    expect(await provider.fetchWorkItem(60_000, 0, null, { type: 'DefaultOnly' })).toBeNull();
    expect((await provider.getQueueDepths()).workerQueue).toBe(0);
  });

  it('a token that expired and cannot be refreshed fails new connections with an error that says it expired', async () => {
    const credential = await newCredential(1_500);
    const provider = await entraProvider(credential, { refreshIntervalMs: 60_000 });
    credential.failNext(Number.MAX_SAFE_INTEGER);
    const expiresAt = Date.now() + 1_500;
    while (Date.now() <= expiresAt) await new Promise((resolve) => setTimeout(resolve, 100));
    await dropSessions(credential.role);

    // A pooled connection the server just ended may fail a first call as a lost connection.
    let error: unknown;
    do {
      error = await provider.getQueueDepths().then(
        () => undefined,
        (e: unknown) => e,
      );
    } while (error instanceof Error && /Connection/.test(error.message));
    expect(ProviderError.isInstance(error) && error.retryable).toBe(true);
    expect((error as Error).message).toMatch(
      /access token for .* expired at .* and no new one could be had: .*token service unavailable/,
    );
  });

  it('a credential that hands out an already expired token fails connecting with an error that says so', async () => {
    const credential = await newCredential(-1_000);
    const error = await entraProvider(credential).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AccessTokenError.isInstance(error) && error.code).toBe('expired');
    expect((error as Error).message).toMatch(
      /returned an access token .* that had already expired/,
    );
  });

  it('an empty host, database or user, or a port out of range, is refused before any token is asked for', async () => {
    const credential = await newCredential();
    const cases: [string, number, string, string, RegExp][] = [
      ['', server.port, 'postgres', credential.role, /host must be a non-empty string/],
      [
        'localhost',
        0,
        'postgres',
        credential.role,
        /port must be an integer from 1 to 65535, got 0/,
      ],
      ['localhost', server.port, ' ', credential.role, /database must be a non-empty string/],
      ['localhost', server.port, 'postgres', '', /user must be a non-empty string/],
    ];
    for (const [host, port, database, user, message] of cases) {
      await expect(
        PostgresProvider.connectWithEntra(host, port, database, user, { credential }),
      ).rejects.toThrow(message);
    }
    expect(credential.scopes).toEqual([]);
  });

  it('a token function works as the credential does', async () => {
    const credential = await newCredential();
    const audiences: string[] = [];
    const provider = await entraProvider(credential, {
      audience: 'https://ossrdbms-aad.database.usgovcloudapi.net/.default',
      getToken: (audience) => {
        audiences.push(audience);
        return credential.getToken(audience);
      },
    });
    expect((await provider.getQueueDepths()).orchestratorQueue).toBe(0);
    expect(audiences[0]).toBe('https://ossrdbms-aad.database.usgovcloudapi.net/.default');
  });
});

describe('the runtime on an Entra ID provider', () => {
  it('runs a fan-out to completion across three token rotations, each activity once', async () => {
    const credential = await newCredential();
    const provider = await entraProvider(credential, { maxConnections: 4 });
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const runs = new Map<number, number>();
    const runtime = new Runtime(provider, {
      dispatcherPollIntervalMs: 10,
      dispatcherLongPollTimeoutMs: 200,
      logLevel: 'silent',
    });
    runtime.registerActivity('Echo', async (_ctx, index: number) => {
      runs.set(index, (runs.get(index) ?? 0) + 1);
      await gate;
      return `echo ${index}`;
    });
    runtime.registerOrchestration('FanOut', function* (ctx: OrchestrationContext, count: number) {
      const tasks = Array.from({ length: count }, (_, index) =>
        ctx.scheduleActivity('Echo', index),
      );
      return (yield ctx.all(tasks)) as unknown;
    });
    await runtime.start();
    try {
      const client = new Client(provider);
      await client.startOrchestration('fan-out', 'FanOut', 12);
      await until(async () => runs.size > 0);

      // The first rotation leaves the sessions open, which keep working with the old login;
      // the next two end them, and the runtime carries on with logins using the new tokens.
      for (const endSessions of [false, true, true]) {
        await credential.rotate();
        await credential.servedCurrent();
        if (!endSessions) continue;
        await dropSessions(credential.role);
        await until(async () => {
          const sessions = await server.query(`SELECT 1 FROM pg_stat_activity WHERE usename = $1`, [
            credential.role,
          ]);
          return sessions.length > 0;
        });
      }
      openGate();

      const status = await client.waitForOrchestration('fan-out', 60_000);
      expect(status.status).toBe('Completed');
      expect(status.output).toEqual(echoes(12));
      const history = await new ManagementClient(provider).readExecutionHistory('fan-out', 1);
      expect(history.filter((event) => event.kind === 'ActivityCompleted')).toHaveLength(12);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(runs.size).toBe(12);
    } finally {
      openGate();
      await runtime.shutdown();
    }
  });
});
