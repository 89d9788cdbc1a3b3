import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client,
  InMemoryProvider,
  ProviderError,
  Runtime,
  type Provider,
  type RuntimeOptions,
} from '../src/index.js';

/** An application's OpenTelemetry SDK, with in-memory exporters. */
class TestTelemetry {
  readonly spans = new InMemorySpanExporter();
  readonly tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(this.spans)],
  });
  private readonly metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when flushed: the test decides when metrics are read.
  private readonly reader = new PeriodicExportingMetricReader({
    exporter: this.metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  readonly meterProvider = new MeterProvider({ readers: [this.reader] });

  /** Every metric collected now, by name. */
  async metrics(): Promise<Map<string, MetricData>> {
    await this.reader.forceFlush();
    const exported = this.metricExporter.getMetrics().at(-1);
    const byName = new Map<string, MetricData>();
    for (const scope of exported?.scopeMetrics ?? []) {
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    }
    return byName;
  }

  /** The sum of a counter's points whose attributes include `where`. */
  async counter(name: string, where: Record<string, string> = {}): Promise<number> {
    const metric = (await this.metrics()).get(name);
    if (!metric || metric.dataPointType !== DataPointType.SUM) return 0;
    return metric.dataPoints
      .filter((point) => Object.entries(where).every(([k, v]) => point.attributes[k] === v))
      .reduce((sum, point) => sum + point.value, 0);
  }

  finished(name: string): ReadableSpan[] {
    return this.spans.getFinishedSpans().filter((span) => span.name === name);
  }

  async close(): Promise<void> {
    await this.meterProvider.shutdown();
    await this.tracerProvider.shutdown();
  }
}

/** Log lines written by a pino logger, parsed. */
function capturedLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

/**
 * A provider whose orchestration items always arrive past `maxAttempts`, with acks that fail or
 * not. It serves one turn per fetch (the batched turn methods are hidden), which is what the
 * overrides cover.
 */
function overMaxAttempts(inner: InMemoryProvider, rejectAcks: boolean): Provider {
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'fetchOrchestrationItems' || property === 'ackOrchestrationItems') {
        return undefined;
      }
      if (property === 'fetchOrchestrationItem') {
        return async (...args: Parameters<Provider['fetchOrchestrationItem']>) => {
          const fetched = await target.fetchOrchestrationItem(...args);
          return fetched && { ...fetched, attemptCount: 99 };
        };
      }
      if (property === 'ackOrchestrationItem' && rejectAcks) {
        return async () => {
          throw ProviderError.permanent('ack_orchestration_item', 'Invalid lock token');
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

async function eventually(check: () => boolean): Promise<void> {
  for (let tries = 0; tries < 500 && !check(); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(check()).toBe(true);
}

const QUICK: RuntimeOptions = { dispatcherPollIntervalMs: 10, logLevel: 'silent' };

describe('observability', () => {
  let telemetry: TestTelemetry;
  const runtimes: Runtime[] = [];
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown()));
    await telemetry.close();
  });

  function runtimeOn(provider: Provider, options: RuntimeOptions = {}): Runtime {
    const runtime = new Runtime(provider, {
      ...QUICK,
      meterProvider: telemetry.meterProvider,
      tracerProvider: telemetry.tracerProvider,
      ...options,
    });
    runtimes.push(runtime);
    return runtime;
  }

  it('an application with an OpenTelemetry SDK receives a span per turn and per activity, with the ids that find them', async () => {
    telemetry = new TestTelemetry();
    const provider = new InMemoryProvider();
    const runtime = runtimeOn(provider);
    runtime.registerActivity('Hello', async (_ctx, name: string) => `Hello, ${name}!`);
    runtime.registerOrchestration('Greet', function* (ctx, name: string) {
      return yield* ctx.scheduleActivity<string>('Hello', name);
    });
    await runtime.start();
    const client = new Client(provider);
    await client.startOrchestration('greet-1', 'Greet', 'Ada');
    await client.waitForOrchestration('greet-1', 10_000);
    await runtime.shutdown();

    const turns = telemetry.finished('duro.orchestration.turn');
    expect(turns.length).toBeGreaterThanOrEqual(2);
    for (const turn of turns) {
      expect(turn.attributes).toMatchObject({
        'duro.instance_id': 'greet-1',
        'duro.execution_id': 1,
        'duro.orchestration.name': 'Greet',
        'duro.orchestration.version': '1.0.0',
        'duro.attempt': 1,
        'duro.turn.disposition': 'committed',
      });
    }
    const [activity, ...others] = telemetry.finished('duro.activity.execute');
    expect(others).toHaveLength(0);
    expect(activity?.attributes).toMatchObject({
      'duro.instance_id': 'greet-1',
      'duro.execution_id': 1,
      'duro.orchestration.name': 'Greet',
      'duro.orchestration.version': '1.0.0',
      'duro.activity.name': 'Hello',
      'duro.activity.id': 2,
      'duro.attempt': 1,
      'duro.activity.outcome': 'success',
    });
  });

  it("an application with an OpenTelemetry SDK receives duroxide's metrics, durations and queue depth gauges", async () => {
    telemetry = new TestTelemetry();
    const provider = new InMemoryProvider();
    const runtime = runtimeOn(provider);
    runtime.registerActivity('Fail', async () => {
      throw new Error('no');
    });
    runtime.registerActivity('Echo', async (_ctx, value: number) => value);
    runtime.registerOrchestration('Twice', function* (ctx) {
      yield* ctx.scheduleActivity('Echo', 1);
      try {
        yield* ctx.scheduleActivity('Fail', null);
      } catch {
        // The failure is the point: it is counted as an application error.
      }
      return 'done';
    });
    await runtime.start();
    const client = new Client(provider);
    await client.startOrchestration('twice-1', 'Twice');
    await client.waitForOrchestration('twice-1', 10_000);

    const labels = { orchestration_name: 'Twice', version: '1.0.0' };
    expect(
      await telemetry.counter('duroxide_orchestration_starts_total', {
        ...labels,
        initiated_by: 'client',
      }),
    ).toBe(1);
    expect(
      await telemetry.counter('duroxide_orchestration_completions_total', {
        ...labels,
        status: 'success',
      }),
    ).toBe(1);
    const activity = (outcome: string, name: string) =>
      telemetry.counter('duroxide_activity_executions_total', { outcome, activity_name: name });
    expect(await activity('success', 'Echo')).toBe(1);
    expect(await activity('app_error', 'Fail')).toBe(1);
    expect(await telemetry.counter('duroxide_worker_dispatcher_items_fetched')).toBe(2);
    expect(
      await telemetry.counter('duroxide_orchestration_dispatcher_items_fetched'),
    ).toBeGreaterThanOrEqual(3);

    const metrics = await telemetry.metrics();
    const histogramCount = (name: string): number => {
      const metric = metrics.get(name);
      if (metric?.dataPointType !== DataPointType.HISTOGRAM) return 0;
      return metric.dataPoints.reduce((sum, point) => sum + point.value.count, 0);
    };
    expect(histogramCount('duroxide_activity_duration_seconds')).toBe(2);
    expect(histogramCount('duroxide_worker_dispatcher_execution_duration_ms')).toBe(2);
    expect(histogramCount('duroxide_orchestration_duration_seconds')).toBe(1);
    expect(
      histogramCount('duroxide_orchestration_dispatcher_processing_duration_ms'),
    ).toBeGreaterThanOrEqual(3);
    for (const gauge of [
      'duroxide_orchestrator_queue_depth',
      'duroxide_worker_queue_depth',
      'duroxide_timer_queue_depth',
    ]) {
      const metric = metrics.get(gauge);
      expect(metric?.dataPointType, gauge).toBe(DataPointType.GAUGE);
      expect(metric?.dataPoints.map((point) => point.value)).toEqual([0]);
    }
  });

  it('a poison disposition whose ack fails is counted as poison-failed, never as poison, and its log lines share the lock token', async () => {
    telemetry = new TestTelemetry();
    const { logger, lines } = capturedLogger();
    const inner = new InMemoryProvider();
    const runtime = runtimeOn(overMaxAttempts(inner, true), { logger, maxAttempts: 3 });
    runtime.registerOrchestration('Never', function* () {
      return yield* [];
    });
    await runtime.start();
    await new Client(inner).startOrchestration('poison-1', 'Never');
    await eventually(() => runtime.metricsSnapshot().orchPoisonFailed >= 1);
    await runtime.shutdown();

    expect(runtime.metricsSnapshot()).toMatchObject({ orchPoison: 0 });
    expect(runtime.metricsSnapshot().orchAckFailures).toBeGreaterThanOrEqual(1);
    expect(await telemetry.counter('duroxide_orchestration_poison_total')).toBe(0);
    expect(
      await telemetry.counter('duroxide_orchestration_poison_failed_total'),
    ).toBeGreaterThanOrEqual(1);
    expect((await new Client(inner).getStatus('poison-1')).status).not.toBe('Failed');

    const marking = lines.find((line) => String(line.msg).includes('exceeded max attempts'));
    const failed = lines.find((line) => String(line.msg).includes('Poison disposition was not'));
    expect(marking).toMatchObject({ instanceId: 'poison-1', executionId: 1, attemptCount: 99 });
    expect(typeof marking?.lockToken).toBe('string');
    expect(failed).toMatchObject({
      instanceId: 'poison-1',
      lockToken: marking?.lockToken,
      error: 'ack_orchestration_item: Invalid lock token',
    });
    const [turn] = telemetry.finished('duro.orchestration.turn');
    expect(turn?.attributes['duro.turn.disposition']).toBe('poison_failed');
  });

  it('a poison disposition that commits fails the instance and is counted once as poison', async () => {
    telemetry = new TestTelemetry();
    const inner = new InMemoryProvider();
    const runtime = runtimeOn(overMaxAttempts(inner, false), { maxAttempts: 3 });
    runtime.registerOrchestration('Never', function* () {
      return yield* [];
    });
    await runtime.start();
    const client = new Client(inner);
    await client.startOrchestration('poison-2', 'Never');
    const status = await client.waitForOrchestration('poison-2', 10_000);
    await runtime.shutdown();

    expect(status.status).toBe('Failed');
    expect(runtime.metricsSnapshot()).toMatchObject({ orchPoison: 1, orchPoisonFailed: 0 });
    expect(await telemetry.counter('duroxide_orchestration_poison_total')).toBe(1);
    expect(await telemetry.counter('duroxide_orchestration_poison_failed_total')).toBe(0);
  });

  it("the snapshot counts duroxide-node's sub-orchestration calls, activity configuration errors and provider errors, and so does OpenTelemetry", async () => {
    telemetry = new TestTelemetry();
    const inner = new InMemoryProvider();
    let failedAcks = 0;
    // A provider whose first abandon of an activity fails, as a store that lost its connection.
    const flaky = new Proxy(inner, {
      get(target, property, receiver) {
        if (property === 'abandonWorkItem' && failedAcks === 0) {
          return async () => {
            failedAcks += 1;
            throw ProviderError.retryable('abandon_work_item', 'connection reset');
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    // The activity whose abandon failed comes back when its 1 s lock lapses.
    const runtime = runtimeOn(flaky, {
      unregisteredBackoff: { baseDelayMs: 10, maxDelayMs: 10 },
      workerLockTimeoutMs: 1_000,
    });
    runtime.registerOrchestration('Child', function* () {
      yield* [];
      return 'child done';
    });
    runtime.registerOrchestration('Parent', function* (ctx) {
      const first = yield* ctx.scheduleSubOrchestration<string>('Child', null);
      const second = yield* ctx.scheduleSubOrchestration<string>('Child', null);
      return `${first}, ${second}`;
    });
    runtime.registerOrchestration('CallsMissing', function* (ctx) {
      return yield* ctx.scheduleActivity('Missing', null);
    });
    await runtime.start();
    const client = new Client(inner);
    await client.startOrchestration('parent', 'Parent');
    await client.startOrchestration('missing', 'CallsMissing');
    expect((await client.waitForOrchestration('parent', 10_000)).output).toBe(
      'child done, child done',
    );
    await eventually(() => runtime.metricsSnapshot().activityConfigErrors >= 2);

    const snapshot = runtime.metricsSnapshot();
    expect(snapshot.suborchestrationCalls).toBe(2);
    expect(snapshot.providerErrors).toBe(1);
    expect(
      await telemetry.counter('duroxide_suborchestration_calls_total', {
        parent_orchestration: 'Parent',
        child_orchestration: 'Child',
      }),
    ).toBe(2);
    expect(
      await telemetry.counter('duroxide_activity_executions_total', {
        outcome: 'config_error',
        activity_name: 'Missing',
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await telemetry.counter('duroxide_provider_errors_total', {
        operation: 'abandon_work_item',
        error_type: 'connection',
      }),
    ).toBe(1);
  });
});
