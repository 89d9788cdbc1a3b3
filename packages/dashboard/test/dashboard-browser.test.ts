import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startDashboard, type RunningDashboard } from '@duro/dashboard';
import { useTestSchema } from '@duro/test-postgres/vitest';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/headless-chromium.js';
import {
  BULK_INSTANCES,
  runScenarios,
  SCRIPT_PAYLOAD,
  startScenarioRuntime,
  statusReached,
  type ScenarioRuntime,
} from './support/scenario-runtime.js';

const schema = useTestSchema();
/** When set, the pages are also saved there as PNG screenshots, for a person to look at. */
const SCREENSHOTS = process.env.DURO_UI_SCREENSHOTS;
let scenarios: ScenarioRuntime;
let dashboard: RunningDashboard;
let browser: Browser;
let page: Page;
const logged: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  scenarios = await startScenarioRuntime(schema.databaseUrl, schema.name);
  await runScenarios(scenarios.client);
  await scenarios.client.startOrchestration('cancel-me', 'Approval');
  await statusReached(scenarios.client, 'cancel-me', 'Running');
  dashboard = await startDashboard({
    databaseUrl: schema.databaseUrl,
    schema: schema.name,
    port: 0,
    allowActions: true,
    sampleIntervalMs: 200,
    log: (line) => logged.push(line),
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  if (SCREENSHOTS !== undefined) await mkdir(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await scenarios?.stop();
});

async function open(hash: string): Promise<void> {
  await page.goto(`${dashboard.url}${hash}`);
}

async function screenshot(name: string): Promise<void> {
  if (SCREENSHOTS !== undefined) {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }
}

/** Opens the action form `title`, fills `fields`, and submits it (which opens the dialog). */
async function startAction(title: string, fields: Record<string, string> = {}): Promise<void> {
  const form = page.locator(`form[data-action="${title}"]`);
  for (const [name, value] of Object.entries(fields)) {
    await form.locator(`[name="${name}"]`).fill(value);
  }
  await form.locator('button[type="submit"]').click();
  await expect.poll(() => page.locator('#confirm').isVisible()).toBe(true);
}

describe('the dashboard in a browser', () => {
  it('lists instances newest first with live counts, filters them, and pages to older ones', async () => {
    await open('#/');
    const rows = page.locator('table[aria-label="Instances"] tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    await expect
      .poll(() => page.locator('button.chip[data-status="Failed"] .count').textContent())
      .toBe('1');
    await expect
      .poll(() => page.locator('button.chip[data-status="Completed"] .count').textContent())
      .toBe(String(BULK_INSTANCES + 4));
    await screenshot('instances');
    const newest = await rows.first().getAttribute('data-instance');
    await page.locator('button[data-next]').click();
    await expect.poll(async () => rows.first().getAttribute('data-instance')).not.toBe(newest);
    expect(await rows.count()).toBeGreaterThan(0);
    await page.locator('button.chip[data-status="Failed"]').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-instance')).toBe('failing-1');
    await page.locator('form.filters button', { hasText: 'Clear' }).click();
    await page.locator('input[name="prefix"]').fill('bulk-00');
    await page.locator('form.filters button[type="submit"]').click();
    await expect.poll(() => rows.count()).toBe(9);
    expect(page.url()).toContain('#/?prefix=bulk-00');
  });

  it('shows an instance: status, input, output, custom status and key/values, payloads as text', async () => {
    await open('#/instance/order-1');
    const input = page.locator('[data-payload="Input"] pre');
    // The input is pretty-printed JSON, so the payload's quotes appear escaped inside it.
    await expect.poll(() => input.textContent()).toContain(JSON.stringify(SCRIPT_PAYLOAD));
    expect(await page.locator('[data-payload="Output"] pre').textContent()).toContain(
      '<img src=x onerror=',
    );
    expect(await page.locator('[data-payload="custom status"]').textContent()).toContain('"done"');
    expect(await page.locator('section[aria-label="Key/values"]').textContent()).toContain('stage');
    expect(await page.locator('h1 .badge').textContent()).toBe('Completed');
    // Shown as characters, never parsed: no element came from the payload and nothing ran.
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await screenshot('instance');
  });

  it('draws the timeline of turns, the activity, the timer and the sub-orchestration, and the tree', async () => {
    await open('#/instance/order-1');
    const timeline = page.locator('section[aria-label="Timeline"]');
    await expect.poll(() => timeline.locator('rect.span').count()).toBe(3);
    for (const kind of ['activity', 'timer', 'subOrchestration']) {
      expect(
        await timeline.locator(`rect[data-kind="${kind}"][data-outcome="completed"]`).count(),
      ).toBe(1);
    }
    expect(await timeline.locator('line.turn-line').count()).toBe(4);
    expect(await timeline.locator('rect[data-kind="activity"] title').textContent()).toMatch(
      /^activity Charge: completed, \d+ ms/,
    );
    expect(await timeline.locator('table[aria-label="Events"] tbody tr').count()).toBeGreaterThan(
      8,
    );
    const child = page.locator('section[aria-label="Sub-orchestrations"] li li');
    expect(await child.getAttribute('data-instance')).toMatch(/^order-1::sub::\d+$/);
    await child.locator('a').click();
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/^order-1::sub::\d+/);
    expect(await page.locator('section[aria-label="Sub-orchestrations"] li.current').count()).toBe(
      1,
    );
  });

  it('marks the attempts of a retried activity and shows how a failed instance failed', async () => {
    await open('#/instance/flaky-1');
    const attempts = page.locator('rect[data-kind="activity"] title');
    await expect.poll(() => attempts.count()).toBe(3);
    expect(await attempts.nth(2).textContent()).toMatch(
      /^activity Unreliable \(attempt 3\): completed/,
    );
    expect(await page.locator('rect[data-outcome="failed"]').count()).toBe(2);
    await screenshot('timeline-retries');
    await open('#/instance/failing-1');
    await expect
      .poll(() => page.locator('[data-payload="Error"] .error').textContent())
      .toContain('card declined <b>twice</b>');
  });

  it('lists the executions across continue-as-new and opens the timeline of an older one', async () => {
    await open('#/instance/looper-1');
    const executions = page.locator('section[aria-label="Executions"] tbody tr');
    await expect.poll(() => executions.count()).toBe(3);
    await page.locator('tr[data-execution="1"] a').click();
    await expect
      .poll(() => page.locator('section[aria-label="Timeline"] h2').first().textContent())
      .toMatch(/^Timeline of execution 1 —/);
  });

  it('says why a running instance does not progress', async () => {
    await open('#/instance/gpu-1');
    await expect
      .poll(() => page.locator('section[aria-label="Why"] .findings').textContent())
      .toContain("activity Render #2 (tag 'gpu') has waited");
  });

  it('shows the queues, the due work and locks, and plots depths and throughput over time', async () => {
    await open('#/queues');
    const charts = page.locator('figure.chart');
    await expect.poll(() => charts.count()).toBe(2);
    await expect.poll(() => charts.first().locator('polyline.series').count()).toBe(5);
    expect(await charts.nth(1).locator('polyline.series').count()).toBeGreaterThan(0);
    expect(
      await page
        .locator('section[aria-label="Worker queue"] [data-figure="ready"] .value')
        .textContent(),
    ).toBe('1');
    expect(await page.locator('section[aria-label="Worker queue"]').textContent()).toContain(
      'Ready by tag: gpu 1',
    );
    await screenshot('queues');
  });

  it('asks to confirm each action, and a dismissed confirmation changes nothing', async () => {
    await open('#/instance/approval-1');
    await startAction('Raise event', { eventName: 'approve', eventData: '"yes"' });
    expect(await page.locator('#confirm-body').textContent()).toContain('Event: approve');
    await screenshot('confirm-raise');
    await page.locator('#confirm-cancel').click();
    await expect.poll(() => page.locator('#confirm').isVisible()).toBe(false);
    expect(logged.filter((line) => line.includes('action raise-event'))).toEqual([]);
    await startAction('Raise event', { eventName: 'approve', eventData: '"yes"' });
    await page.locator('#confirm-ok').click();
    await expect
      .poll(() => page.locator('[role="status"]').textContent())
      .toBe("raised 'approve' on approval-1");
    await startAction('Enqueue message', { queueName: 'inbox', queueData: '"from the page"' });
    await page.locator('#confirm-ok').click();
    expect(await scenarios.client.waitForOrchestration('approval-1', 30_000)).toMatchObject({
      status: 'Completed',
      output: { decision: 'yes', note: 'from the page' },
    });
    expect(
      logged.some((line) => line.includes('action enqueue-event {"instanceId":"approval-1"')),
    ).toBe(true);
  });

  it('cancels, prunes and deletes only once the instance id is typed where asked', async () => {
    await open('#/instance/cancel-me');
    await startAction('Cancel', { reason: 'changed my mind' });
    await page.locator('#confirm-ok').click();
    await statusReached(scenarios.client, 'cancel-me', 'Failed');

    await open('#/instance/looper-1');
    await startAction('Prune executions', { keepLast: '1' });
    expect(await page.locator('#confirm-ok').isDisabled()).toBe(true);
    await page.locator('#confirm-typed').fill('looper-1');
    expect(await page.locator('#confirm-ok').isDisabled()).toBe(false);
    await page.locator('#confirm-ok').click();
    await expect
      .poll(() => page.locator('section[aria-label="Executions"] tbody tr').count())
      .toBe(1);

    await open('#/instance/failing-1');
    await startAction('Delete');
    await page.locator('#confirm-typed').fill('failing-');
    expect(await page.locator('#confirm-ok').isDisabled()).toBe(true);
    await page.locator('#confirm-typed').fill('failing-1');
    await page.locator('#confirm-ok').click();
    await expect.poll(() => page.url()).toMatch(/#\/$/);
    expect((await scenarios.client.getStatus('failing-1')).status).toBe('NotFound');
    expect(logged.some((line) => /action delete \{"instanceId":"failing-1"/.test(line))).toBe(true);
  });

  it('offers no actions when read-only', async () => {
    const readOnly = await startDashboard({
      databaseUrl: schema.databaseUrl,
      schema: schema.name,
      port: 0,
    });
    try {
      await page.goto(`${readOnly.url}#/instance/approval-2`);
      await expect.poll(() => page.locator('#mode').textContent()).toBe('read-only');
      await expect.poll(() => page.locator('section[aria-label="Why"]').count()).toBe(1);
      expect(await page.locator('section[aria-label="Actions"]').count()).toBe(0);
    } finally {
      await readOnly.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
