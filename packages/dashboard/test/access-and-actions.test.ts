import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDashboard, startDashboard, type RunningDashboard } from '@duro/dashboard';
import type { InstanceDetailJson, SessionInfo } from '@duro/dashboard';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardHttp } from './support/dashboard-http.js';
import {
  statusReached,
  startScenarioRuntime,
  type ScenarioRuntime,
} from './support/scenario-runtime.js';

const schema = useTestSchema();
let scenarios: ScenarioRuntime;
const logged: string[] = [];
let open: RunningDashboard;
let readOnly: RunningDashboard;

beforeAll(async () => {
  scenarios = await startScenarioRuntime(schema.databaseUrl, schema.name);
  for (const id of ['approve-me', 'enqueue-me', 'cancel-me', 'remove-me']) {
    await scenarios.client.startOrchestration(id, 'Approval');
  }
  await scenarios.client.startOrchestration('loop-me', 'Looper', 1);
  for (const id of ['approve-me', 'enqueue-me', 'cancel-me', 'remove-me']) {
    await statusReached(scenarios.client, id, 'Running');
  }
  await statusReached(scenarios.client, 'loop-me', 'Completed');
  const common = { databaseUrl: schema.databaseUrl, schema: schema.name, port: 0 };
  open = await startDashboard({ ...common, allowActions: true, log: (line) => logged.push(line) });
  readOnly = await startDashboard({ ...common, log: (line) => logged.push(line) });
});

afterAll(async () => {
  await open?.close();
  await readOnly?.close();
  await scenarios?.stop();
});

/** `GET api/counts` with the `Host` header `host` (which fetch does not let a caller set). */
function requestWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL('api/counts', url), { headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Posts an action the way the page does: same origin, JSON, with the session's CSRF token. */
async function act(
  dashboard: RunningDashboard,
  name: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const http = dashboardHttp(dashboard.url);
  const session = await http.json<SessionInfo>('api/session');
  const origin = new URL(dashboard.url).origin;
  return http.request(`api/actions/${name}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-duro-csrf': session.csrfToken,
      origin,
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('what the dashboard lets in', () => {
  it('listens on 127.0.0.1 by default and needs no token there', async () => {
    const dashboard = await startDashboard({
      databaseUrl: schema.databaseUrl,
      schema: schema.name,
      port: 0,
    });
    try {
      expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(dashboard.accessToken).toBeUndefined();
      expect((await fetch(`${dashboard.url}api/session`)).status).toBe(200);
    } finally {
      await dashboard.close();
    }
  });

  it('refuses a request addressed to a foreign host name, so DNS rebinding reaches nothing', async () => {
    const foreign = await requestWithHost(open.url, 'evil.example:80');
    expect(foreign).toEqual({
      status: 403,
      body: "host 'evil.example:80' is not one this dashboard answers to\n",
    });
    const port = new URL(open.url).port;
    expect((await requestWithHost(open.url, `localhost:${port}`)).status).toBe(200);
    expect((await requestWithHost(open.url, `[::1]:${port}`)).status).toBe(200);
  });

  it('generates an access token when listening beyond localhost, and refuses requests without it', async () => {
    // 127.0.0.2 is on this machine, but not one of the loopback names that go without a token.
    const dashboard = await startDashboard({
      databaseUrl: schema.databaseUrl,
      schema: schema.name,
      host: '127.0.0.2',
      port: 0,
    });
    try {
      const token = dashboard.accessToken ?? '';
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(dashboard.url).toBe(`http://127.0.0.2:${dashboard.port}/?token=${token}`);
      const base = `http://127.0.0.2:${dashboard.port}/`;
      const bare = await fetch(`${base}api/counts`);
      expect(bare.status).toBe(401);
      expect(((await bare.json()) as { error: string }).error).toContain(
        'an access token is required',
      );
      expect((await fetch(base)).status).toBe(401);
      expect(
        (await fetch(`${base}api/counts`, { headers: { authorization: 'Bearer wrong-token' } }))
          .status,
      ).toBe(401);
      expect((await fetch(`${base}?token=wrong-token`, { redirect: 'manual' })).status).toBe(401);
      const bearer = await fetch(`${base}api/counts`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(bearer.status).toBe(200);
      // ?token= on the page sets the session cookie and leaves the address bar at once.
      const entry = await fetch(dashboard.url, { redirect: 'manual' });
      expect(entry.status).toBe(303);
      expect(entry.headers.get('location')).toBe('/');
      const cookie = entry.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^duro_ui_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
      expect(cookie).not.toContain(token);
      const withCookie = await fetch(`${base}api/counts`, {
        headers: { cookie: cookie.split(';')[0] ?? '' },
      });
      expect(withCookie.status).toBe(200);
    } finally {
      await dashboard.close();
    }
  });

  it('sends pages that run only their own scripts and never render inside another site', async () => {
    const page = await fetch(open.url);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await fetch(`${open.url}assets/../../package.json`)).status).toBe(404);
    expect((await fetch(`${open.url}assets/main.js`)).headers.get('content-type')).toContain(
      'text/javascript',
    );
  });

  it('can be mounted under a path of an app’s own server', async () => {
    const dashboard = await createDashboard({
      databaseUrl: schema.databaseUrl,
      schema: schema.name,
      basePath: '/ops/duro/',
    });
    const server = createServer((request, response) => {
      if (request.url?.startsWith('/ops/duro')) dashboard.handle(request, response);
      else response.end('the app');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(
        (await fetch(`${base}/ops/duro`, { redirect: 'manual' })).headers.get('location'),
      ).toBe('/ops/duro/');
      expect(await (await fetch(`${base}/ops/duro/`)).text()).toContain('<title>duro</title>');
      expect(await (await fetch(`${base}/ops/duro/api/session`)).json()).toMatchObject({
        schema: schema.name,
      });
      expect(await (await fetch(`${base}/other`)).text()).toBe('the app');
    } finally {
      server.close();
      await dashboard.close();
    }
  });
});

describe('actions', () => {
  it('are refused, and logged, when the dashboard is read-only', async () => {
    const response = await act(readOnly, 'cancel', { instanceId: 'cancel-me' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'actions are disabled: start the dashboard with --allow-actions',
    });
    expect(logged.at(-1)).toMatch(
      /^\S+Z duro ui: refused action 'cancel' from 127\.0\.0\.1 \(no token required\): actions are disabled/,
    );
    expect((await scenarios.client.getStatus('cancel-me')).status).toBe('Running');
  });

  it('are refused without the CSRF header, from another origin or site, or with a body that is not JSON', async () => {
    const refusals = [
      [{ 'x-duro-csrf': '' }, 403, 'missing or wrong x-duro-csrf header'],
      [{ 'x-duro-csrf': 'guessed' }, 403, 'missing or wrong x-duro-csrf header'],
      [{ origin: 'http://evil.example' }, 403, 'request from another origin (http://evil.example)'],
      [{ 'sec-fetch-site': 'cross-site' }, 403, 'cross-site request (Sec-Fetch-Site: cross-site)'],
      [{ 'content-type': 'text/plain' }, 415, 'an action body must be application/json'],
    ] as const;
    for (const [headers, status, error] of refusals) {
      const response = await act(open, 'cancel', { instanceId: 'cancel-me' }, headers);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error });
      expect(logged.at(-1)).toContain(
        `refused action 'cancel' from 127.0.0.1 (no token required): ${error}`,
      );
    }
    const get = await dashboardHttp(open.url).request('api/actions/cancel');
    expect(get.status).toBe(405);
    expect((await act(open, 'explode', {})).status).toBe(404);
    expect((await scenarios.client.getStatus('cancel-me')).status).toBe('Running');
  });

  it('refuse bad input with a message naming the field', async () => {
    const cases = [
      [{ eventName: 'approve' }, 'instanceId must be a non-empty string'],
      [
        { instanceId: 'approve-me', eventName: 'approve', data: '{not json' },
        'data must be JSON (a string needs its quotes: "text")',
      ],
      [{ instanceId: 'nobody', eventName: 'approve' }, "instance 'nobody' not found"],
    ] as const;
    for (const [body, error] of cases) {
      const response = await act(open, 'raise-event', body);
      expect(await response.json()).toEqual({ error });
    }
    expect((await act(open, 'prune', { instanceId: 'loop-me', keepLast: 0 })).status).toBe(400);
  });

  it('raise an event and enqueue a message, each logged with what, on which instance, and from whom', async () => {
    const raised = await act(open, 'raise-event', {
      instanceId: 'approve-me',
      eventName: 'approve',
      data: '"yes"',
    });
    expect(await raised.json()).toEqual({ done: "raised 'approve' on approve-me" });
    expect(logged.at(-1)).toMatch(
      /^\S+Z duro ui: action raise-event \{"instanceId":"approve-me","eventName":"approve","data":"\\"yes\\""\} from 127\.0\.0\.1 \(no token required\): raised 'approve' on approve-me$/,
    );
    const enqueued = await act(open, 'enqueue-event', {
      instanceId: 'approve-me',
      queueName: 'inbox',
      data: '{"note": "ship it"}',
    });
    expect(enqueued.status).toBe(200);
    expect(await scenarios.client.waitForOrchestration('approve-me', 30_000)).toMatchObject({
      status: 'Completed',
      output: { decision: 'yes', note: { note: 'ship it' } },
    });
  });

  it('cancel a running instance, and refuse to cancel one that ended', async () => {
    expect(
      await (
        await act(open, 'cancel', { instanceId: 'cancel-me', reason: 'no longer needed' })
      ).json(),
    ).toEqual({
      done: 'cancellation requested for cancel-me',
    });
    await statusReached(scenarios.client, 'cancel-me', 'Failed');
    const again = await act(open, 'cancel', { instanceId: 'cancel-me' });
    expect(again.status).toBe(409);
    expect(logged.at(-1)).toContain('failed: cancel-me is Failed; there is nothing to cancel');
  });

  it('prune old executions and delete an instance, refusing to delete a running one unless forced', async () => {
    const pruned = await act(open, 'prune', { instanceId: 'loop-me', keepLast: 1 });
    expect(((await pruned.json()) as { done: string }).done).toMatch(/^pruned 2 execution\(s\)/);
    const detail = await dashboardHttp(open.url).json<InstanceDetailJson>(
      'api/instance?id=loop-me',
    );
    expect(detail.executions.map((execution) => execution.executionId)).toEqual([3]);
    const running = await act(open, 'delete', { instanceId: 'remove-me', force: false });
    expect(running.status).toBe(409);
    expect((await act(open, 'delete', { instanceId: 'remove-me', force: true })).status).toBe(200);
    expect((await dashboardHttp(open.url).request('api/instance?id=remove-me')).status).toBe(404);
  });
});
