import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, ManagementClient } from '@duro/core';
import { PostgresProvider } from '@duro/provider-postgres';
import { DEFAULT_FLEET_ASSUMPTIONS, SchemaInspector } from '@duro/provider-postgres/inspection';
import { AccessGuard } from './access-guard.js';
import type { DashboardContext } from './dashboard-context.js';
import {
  DashboardOptionsError,
  LOOPBACK_HOSTS,
  type DashboardOptions,
  type StartDashboardOptions,
} from './dashboard-options.js';
import { sendText } from './http-response.js';
import { QueueSampler } from './queue-sampler.js';
import { handleRequest } from './request-handler.js';

/** A dashboard on one schema, to mount in an app's HTTP server or to run with its own. */
export interface Dashboard {
  /**
   * Answers one request: pass it to `http.createServer`, or mount it beside an app's routes
   * (with {@link DashboardOptions.basePath}).
   */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => void;
  /** The schema shown (as PostgreSQL stores its name). */
  readonly schema: string;
  /** Stops sampling and closes the dashboard's connections. */
  close(): Promise<void>;
}

/** A dashboard serving on its own HTTP server. */
export interface RunningDashboard extends Dashboard {
  /** The address to open, with `?token=` when a token is required. */
  readonly url: string;
  /** The access token requests need, generated when none was given for a non-loopback host. */
  readonly accessToken: string | undefined;
  /** The port it listens on. */
  readonly port: number;
}

const DEFAULT_PORT = 4300;

/**
 * Opens a dashboard on `options.schema`: a pool for its reads, a provider for its actions, and
 * the queue sampler. Nothing listens yet; see {@link startDashboard} for a server of its own.
 * @throws {DashboardOptionsError} for an option that cannot be used.
 * @throws {InspectionError} (`schema-not-migrated`) when the schema has no duro tables.
 */
export async function createDashboard(options: DashboardOptions): Promise<Dashboard> {
  const basePath = checkBasePath(options.basePath ?? '/');
  const sampleIntervalMs = options.sampleIntervalMs ?? 5_000;
  if (!Number.isFinite(sampleIntervalMs) || sampleIntervalMs < 100) {
    throw new DashboardOptionsError(
      `sampleIntervalMs must be at least 100, got ${sampleIntervalMs}`,
    );
  }
  if (options.accessToken !== undefined && options.accessToken.length < 8) {
    throw new DashboardOptionsError('accessToken must have at least 8 characters');
  }
  const schema = options.schema ?? 'public';
  const inspector = await SchemaInspector.connect(options.databaseUrl, schema, {
    applicationName: 'duro-ui',
  });
  let provider: PostgresProvider;
  try {
    provider = await PostgresProvider.connectWithSchema(options.databaseUrl, schema, {
      migrate: false,
      poolSize: 2,
      applicationName: 'duro-ui',
    });
  } catch (error) {
    await inspector.close();
    throw error;
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const sampler = new QueueSampler(inspector, sampleIntervalMs, options.sampleCount ?? 720);
  const csrfToken = randomBytes(24).toString('base64url');
  const context: DashboardContext = {
    inspector,
    client: new Client(provider),
    management: new ManagementClient(provider),
    sampler,
    fleet: { ...DEFAULT_FLEET_ASSUMPTIONS, ...options.fleet },
    actionsEnabled: options.allowActions === true,
    csrfToken,
    log: (line) => log(`${new Date().toISOString()} duro ui: ${line}`),
  };
  const state = {
    context,
    guard: new AccessGuard({
      accessToken: options.accessToken,
      allowedHosts: options.allowedHosts,
      csrfToken,
    }),
    basePath,
    listingIndexes: await inspector.hasListingIndexes(),
  };
  sampler.start();
  return {
    schema: inspector.schema.schemaName,
    handle(request, response) {
      handleRequest(state, request, response).catch((error: unknown) => {
        if (!response.headersSent) sendText(response, 500, String(error));
        else response.destroy();
      });
    },
    async close() {
      await sampler.stop();
      await provider.close();
      await inspector.close();
    },
  };
}

/**
 * Starts a dashboard with its own HTTP server, on `127.0.0.1:4300` unless told otherwise. On a
 * loopback host it answers only requests addressed to a loopback name; on any other host it
 * requires an access token (a random one when none is given; it is part of `url`).
 * @throws {DashboardOptionsError} for an option that cannot be used.
 * @throws {InspectionError} (`schema-not-migrated`) when the schema has no duro tables.
 * @throws the listen error (`EADDRINUSE`, ...) when the server cannot listen.
 */
export async function startDashboard(options: StartDashboardOptions): Promise<RunningDashboard> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new DashboardOptionsError(`port must be a whole number from 0 to 65535, got ${port}`);
  }
  const loopback = LOOPBACK_HOSTS.includes(host);
  const accessToken =
    options.accessToken ?? (loopback ? undefined : randomBytes(24).toString('base64url'));
  const dashboard = await createDashboard({
    ...options,
    ...(accessToken !== undefined ? { accessToken } : {}),
    ...(options.allowedHosts === undefined && loopback
      ? { allowedHosts: ['localhost', '127.0.0.1', '[::1]'] }
      : {}),
  });
  const server = createServer(dashboard.handle);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
  } catch (error) {
    await dashboard.close();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const base = `http://${shownHost}:${bound}${options.basePath ?? '/'}`;
  return {
    ...dashboard,
    url: accessToken === undefined ? base : `${base}?token=${encodeURIComponent(accessToken)}`,
    accessToken,
    port: bound,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dashboard.close();
    },
  };
}

function checkBasePath(path: string): string {
  if (!/^\/([A-Za-z0-9._~-]+\/)*$/.test(path)) {
    throw new DashboardOptionsError(
      `basePath must start and end with '/' and hold plain path segments, got '${path}'`,
    );
  }
  return path;
}
