import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime, type Logger } from '@duro/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';

// OpenTelemetry: pass a MeterProvider (or register one globally) and the runtime reports its
// counters, histograms and queue-depth gauges there. Any exporter works; this one keeps them in
// memory so the example can show them.
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
const meterProvider = new MeterProvider({ readers: [reader] });

// Logs: any object with pino's call shape (fields first, then the message) receives the lines.
const lines: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: (fields, message) => lines.push(`info ${message} ${JSON.stringify(fields)}`),
  warn: (fields, message) => lines.push(`warn ${message} ${JSON.stringify(fields)}`),
  error: (fields, message) => lines.push(`error ${message} ${JSON.stringify(fields)}`),
};

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { meterProvider, logger });
runtime.registerActivity('Work', async (ctx) => {
  ctx.traceInfo('working'); // an activity trace, with instance, activity and worker fields
  return 'done';
});
runtime.registerOrchestration('Job', function* (ctx) {
  ctx.traceInfo('job started'); // an orchestration trace, written once, not on replays
  return yield* ctx.scheduleActivity<string>('Work');
});
await runtime.start();
const client = new Client(provider);
await client.startOrchestration('job-1', 'Job');
await client.waitForOrchestration('job-1');
await runtime.shutdown();

await reader.forceFlush();
const names = exporter
  .getMetrics()
  .flatMap((batch) => batch.scopeMetrics.flatMap((scope) => scope.metrics))
  .map((metric) => metric.descriptor.name);
console.log(names.filter((name) => name.includes('completions')));
// [ 'duroxide_orchestration_completions_total' ]
console.log(runtime.metricsSnapshot().orchCompletions); // 1: the same counters without an SDK
console.log(lines.find((line) => line.includes('job started')));
await meterProvider.shutdown();

assert.ok(names.includes('duroxide_activity_executions_total'));
assert.ok(lines.some((line) => line.startsWith('info working')));
