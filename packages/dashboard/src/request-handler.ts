import type { IncomingMessage, ServerResponse } from 'node:http';
import { InspectionError } from '@duro/provider-postgres/inspection';
import type { AccessGuard, Credential } from './access-guard.js';
import { isActionName, runAction } from './api/actions-api.js';
import { readExecutionTimeline, readInstanceDetail } from './api/instance-api.js';
import { countInstances, listInstances } from './api/instances-api.js';
import { readQueues } from './api/queues-api.js';
import { ApiError, type DashboardContext } from './dashboard-context.js';
import { sendError, sendJson, sendText, writeHead } from './http-response.js';
import type { SessionInfo } from './shared/api-types.js';
import { serveAsset } from './static-assets.js';

/** Largest action body read, bytes. */
const MAX_BODY_BYTES = 1_000_000;

/** Everything a request is answered from. */
export interface RequestHandlerState {
  readonly context: DashboardContext;
  readonly guard: AccessGuard;
  /** The path the dashboard is served under, with a trailing slash (`/`, `/duro/`). */
  readonly basePath: string;
  readonly listingIndexes: boolean;
}

type Reader = (context: DashboardContext, query: URLSearchParams) => Promise<unknown>;

const READS: Readonly<Record<string, Reader>> = {
  'api/instances': listInstances,
  'api/counts': countInstances,
  'api/instance': readInstanceDetail,
  'api/execution': readExecutionTimeline,
  'api/queues': readQueues,
};

/**
 * Answers one request: refuses a foreign `Host` and a missing token, turns `?token=` into the
 * session cookie, serves the page, its files and the JSON API, and runs actions when they are
 * enabled and the request comes from the page itself. Every refused action is logged.
 */
export async function handleRequest(
  state: RequestHandlerState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { guard, context } = state;
  const url = new URL(request.url ?? '/', 'http://dashboard.invalid');
  const hostRefusal = guard.checkHost(request);
  if (hostRefusal) {
    sendText(response, hostRefusal.status, hostRefusal.reason);
    return;
  }
  const path = relativePath(state.basePath, url.pathname);
  if (path === null) {
    if (`${url.pathname}/` === state.basePath) {
      writeHead(response, 308, { location: state.basePath });
      response.end();
    } else {
      sendText(response, 404, 'not found');
    }
    return;
  }
  const token = url.searchParams.get('token');
  if (token !== null && (request.method === 'GET' || request.method === 'HEAD')) {
    const cookie = guard.sessionCookie(state.basePath);
    if (cookie !== null && !guard.acceptsToken(token)) {
      sendText(response, 401, 'wrong access token');
      return;
    }
    // The token leaves the address bar (and the history) at once; the cookie carries it on.
    url.searchParams.delete('token');
    writeHead(response, 303, {
      location: `${state.basePath}${path}${url.search}`,
      ...(cookie !== null ? { 'set-cookie': cookie } : {}),
    });
    response.end();
    return;
  }
  const credential = guard.authenticate(request);
  if (credential === null) {
    const message =
      'an access token is required: open the address duro ui printed (with ?token=), or send Authorization: Bearer TOKEN';
    if (path.startsWith('api/')) sendError(response, 401, message);
    else sendText(response, 401, message);
    return;
  }
  try {
    if (path.startsWith('api/actions/')) {
      await answerAction(state, request, response, path.slice('api/actions/'.length), credential);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendError(response, 405, `${request.method ?? ''} is not answered here`);
      return;
    }
    if (path === 'api/session') {
      const session: SessionInfo = {
        schema: context.inspector.schema.schemaName,
        actionsEnabled: context.actionsEnabled,
        csrfToken: context.csrfToken,
        listingIndexes: state.listingIndexes,
        sampleIntervalMs: context.sampler.intervalMs,
      };
      sendJson(response, 200, session);
      return;
    }
    const read = READS[path];
    if (read) {
      sendJson(response, 200, await read(context, url.searchParams));
      return;
    }
    if (!(await serveAsset(response, path))) sendText(response, 404, 'not found');
  } catch (error) {
    answerFailure(context, response, error, `${request.method ?? ''} ${path}`);
  }
}

/** `pathname` below `basePath` (without the leading slash), or `null` when it is not below it. */
function relativePath(basePath: string, pathname: string): string | null {
  return pathname.startsWith(basePath) ? pathname.slice(basePath.length) : null;
}

async function answerAction(
  state: RequestHandlerState,
  request: IncomingMessage,
  response: ServerResponse,
  name: string,
  credential: Credential,
): Promise<void> {
  const { context } = state;
  const address = request.socket.remoteAddress ?? 'unknown address';
  const refuse = (status: number, reason: string): void => {
    context.log(`refused action '${name}' from ${address} (${credential}): ${reason}`);
    sendError(response, status, reason);
  };
  if (request.method !== 'POST') return refuse(405, 'an action is a POST');
  if (!context.actionsEnabled) {
    return refuse(403, 'actions are disabled: start the dashboard with --allow-actions');
  }
  const refusal = state.guard.checkAction(request);
  if (refusal) return refuse(refusal.status, refusal.reason);
  if (!isActionName(name)) return refuse(404, `there is no action '${name}'`);
  const body = await readJsonBody(request);
  sendJson(response, 200, await runAction(context, name, body, { address, credential }));
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ApiError(400, 'the body is not JSON');
  }
}

function answerFailure(
  context: DashboardContext,
  response: ServerResponse,
  error: unknown,
  what: string,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (error instanceof ApiError) {
    sendError(response, error.status, error.message);
    return;
  }
  if (InspectionError.isInstance(error) && error.code === 'invalid-request') {
    sendError(response, 400, error.message);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  context.log(`${what} failed: ${message}`);
  sendError(response, 500, message);
}
