import { Client, Runtime, type Provider } from '@duro/core';
import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();

// The application's SDK, registered globally as `@opentelemetry/sdk-node` would: the runtimes
// below get no provider in their options and must find it through `@opentelemetry/api`.
const spanExporter = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});
beforeAll(() => {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterAll(() => {
  trace.disable();
  metrics.disable();
});

/** The data points of one metric as the reader collects them now. */
async function points(name: string) {
  await reader.forceFlush();
  const scopes = metricExporter.getMetrics().at(-1)?.scopeMetrics ?? [];
  const metric = scopes.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  if (metric === undefined) return [];
  if (metric.dataPointType === DataPointType.HISTOGRAM) {
    return metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value.count }));
  }
  return metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value as number }));
}

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown()));
});

function runtimeOn(provider: Provider, options: ConstructorParameters<typeof Runtime>[1] = {}) {
  const runtime = new Runtime(provider, {
    dispatcherPollIntervalMs: 20,
    logLevel: 'silent',
    ...options,
  });
  runtimes.push(runtime);
  return runtime;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; tries < 300 && !done(value); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

describe('observability on PostgreSQL', () => {
  it('a parent, its child and an activity run on PostgreSQL reach a globally registered SDK as spans and counters', async () => {
    const provider = await database.newProvider({}, 'otel_run');
    const runtime = runtimeOn(provider);
    runtime.registerActivity('Double', async (_ctx, value: number) => value * 2);
    runtime.registerOrchestration('Child', function* (ctx, value: number) {
      return yield* ctx.scheduleActivity<number>('Double', value);
    });
    runtime.registerOrchestration('Parent', function* (ctx, value: number) {
      return yield* ctx.scheduleSubOrchestrationWithId<number>('Child', 'otel-child', value);
    });
    await runtime.start();
    const client = new Client(provider);
    await client.startOrchestration('otel-parent', 'Parent', 21);
    const status = await client.waitForOrchestration('otel-parent', 30_000);
    expect(status).toMatchObject({ status: 'Completed', output: 42 });

    const starts = await points('duroxide_orchestration_starts_total');
    expect(
      starts.map((p) => [p.attributes.orchestration_name, p.attributes.initiated_by, p.value]),
    ).toEqual(
      expect.arrayContaining([
        ['Parent', 'client', 1],
        ['Child', 'suborchestration', 1],
      ]),
    );
    const completions = await points('duroxide_orchestration_completions_total');
    expect(completions.reduce((sum, p) => sum + p.value, 0)).toBe(2);
    expect(await points('duroxide_activity_executions_total')).toEqual([
      { attributes: { activity_name: 'Double', outcome: 'success' }, value: 1 },
    ]);

    const finished = spanExporter.getFinishedSpans();
    const turnInstances = new Set(
      finished
        .filter((span) => span.name === 'duro.orchestration.turn')
        .map((span) => span.attributes['duro.instance_id']),
    );
    expect([...turnInstances].sort()).toEqual(['otel-child', 'otel-parent']);
    const activity = finished.find((span) => span.name === 'duro.activity.execute');
    expect(activity?.attributes).toMatchObject({
      'duro.instance_id': 'otel-child',
      'duro.orchestration.name': 'Child',
      'duro.activity.name': 'Double',
      'duro.attempt': 1,
      'duro.activity.outcome': 'success',
    });
  });

  it('the queue depth gauges read the PostgreSQL queues each time the application collects', async () => {
    const provider = await database.newProvider({}, 'otel_depth');
    // Orchestrations only: the scheduled activity stays in the worker queue.
    const runtime = runtimeOn(provider, { workerTagFilter: 'none' });
    runtime.registerOrchestration('Waits', function* (ctx) {
      return yield* ctx.scheduleActivity('Elsewhere', null);
    });
    await runtime.start();
    await new Client(provider).startOrchestration('otel-waits', 'Waits');

    const depth = await eventually(
      () => points('duroxide_worker_queue_depth'),
      (values) => values[0]?.value === 1,
    );
    expect(depth).toEqual([{ attributes: {}, value: 1 }]);
    expect(await points('duroxide_orchestrator_queue_depth')).toEqual([
      { attributes: {}, value: 0 },
    ]);
  });

  it('an ack PostgreSQL rejects after a poison verdict is counted as poison-failed and logged with its lock token', async () => {
    const inner: PostgresProvider = await database.newProvider({}, 'otel_poison');
    // Every item arrives past max attempts, and its ack carries a token PostgreSQL never issued,
    // as an ack after a lost lease would: the store rejects it with "Invalid lock token".
    const wrapped = new Proxy(inner, {
      get(target, property, receiver) {
        if (property === 'fetchOrchestrationItem') {
          return async (...args: Parameters<Provider['fetchOrchestrationItem']>) => {
            const fetched = await target.fetchOrchestrationItem(...args);
            return fetched && { ...fetched, attemptCount: 50 };
          };
        }
        if (property === 'ackOrchestrationItem') {
          return (
            token: string,
            ...rest: Parameters<Provider['ackOrchestrationItem']> extends [string, ...infer R]
              ? R
              : never
          ) => target.ackOrchestrationItem(`${token}-expired`, ...rest);
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    // One turn per fetch, so the turn goes through the wrapped single fetch and ack.
    const runtime = runtimeOn(wrapped, {
      logger,
      maxAttempts: 5,
      orchestratorLockTimeoutMs: 1_000,
      orchestrationBatchSize: 1,
    });
    runtime.registerOrchestration('Never', function* () {
      return yield* [];
    });
    await runtime.start();
    await new Client(inner).startOrchestration('otel-poison', 'Never');
    await eventually(
      async () => runtime.metricsSnapshot().orchPoisonFailed,
      (count) => count >= 1,
    );
    await runtime.shutdown();

    expect(runtime.metricsSnapshot().orchPoison).toBe(0);
    expect(
      (await points('duroxide_orchestration_poison_failed_total'))[0]?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(await points('duroxide_orchestration_poison_total')).toEqual([]);
    const verdict = lines.find((line) => String(line.msg).includes('exceeded max attempts'));
    const rejected = lines.find((line) => String(line.msg).includes('Poison disposition was not'));
    expect(verdict?.lockToken).toEqual(expect.any(String));
    expect(rejected).toMatchObject({ instanceId: 'otel-poison', lockToken: verdict?.lockToken });
    expect(String(rejected?.error)).toContain('Invalid lock token');
  });
});
