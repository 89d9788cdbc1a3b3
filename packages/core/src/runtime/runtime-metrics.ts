import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import { METRIC_NAMES, type HistogramName, type MappedCounter } from './metric-names.js';

/**
 * Counters of what a runtime did since it started, as `Runtime.metricsSnapshot()` returns them.
 * Names follow duroxide's `MetricsSnapshot` fields in camelCase (duroxide-node's
 * `JsMetricsSnapshot`); the `…PoisonFailed`, `…AckFailures` and `…LockSteals` counters are
 * duro's (the first after duroxide#47).
 */
export interface MetricsSnapshot {
  /** Executions started (new instances, sub-orchestrations, continue-as-new). */
  readonly orchStarts: number;
  /** Executions that completed. */
  readonly orchCompletions: number;
  /** Executions that failed, for any reason. */
  readonly orchFailures: number;
  /** Failures raised by orchestration code (and cancellations). */
  readonly orchApplicationErrors: number;
  /** Failures caused by the store or the runtime. */
  readonly orchInfrastructureErrors: number;
  /** Failures by nondeterminism. */
  readonly orchConfigurationErrors: number;
  /** Orchestration poison dispositions that were committed: the instance really failed. */
  readonly orchPoison: number;
  /**
   * Orchestration poison dispositions whose ack failed (an expired or stolen lock): the
   * messages are still in the queue and will be fetched again. Never counted in `orchPoison`.
   */
  readonly orchPoisonFailed: number;
  /** Executions that continued as new. */
  readonly orchContinueAsNew: number;
  /** Orchestration turns run. */
  readonly orchTurns: number;
  /** Orchestration turns whose final ack failed (poison dispositions included). */
  readonly orchAckFailures: number;
  /** Turns whose instance lock could not be renewed while they ran. */
  readonly orchLockSteals: number;
  /** Orchestration items fetched by the dispatcher. */
  readonly orchDispatcherItemsFetched: number;
  /** Activities that returned. */
  readonly activitySuccess: number;
  /** Activities that threw. */
  readonly activityAppErrors: number;
  /** Activities that failed for infrastructure reasons. */
  readonly activityInfraErrors: number;
  /**
   * Activity deliveries that found no handler registered under their name (a configuration
   * error; each delivery counts, as it is given back with a backoff and tried again).
   */
  readonly activityConfigErrors: number;
  /** Activity poison dispositions that were committed. */
  readonly activityPoison: number;
  /** Activity poison dispositions whose ack failed; never counted in `activityPoison`. */
  readonly activityPoisonFailed: number;
  /** Activities cancelled while running. */
  readonly activityCancelled: number;
  /** Activity results (or poison failures) whose ack failed. */
  readonly activityAckFailures: number;
  /** Activities whose lock was taken away while they ran (cancellation, or a lost lease). */
  readonly activityLockSteals: number;
  /** Activities fetched by the worker dispatcher. */
  readonly workerDispatcherItemsFetched: number;
  /** Sub-orchestrations this runtime's turns scheduled. */
  readonly suborchestrationCalls: number;
  /** Provider calls of this runtime that failed (retryable or not), every operation counted. */
  readonly providerErrors: number;
}

/** The name of one counter of {@link MetricsSnapshot}. @internal */
export type CounterName = keyof MetricsSnapshot;

// Every counter has an entry in METRIC_NAMES (indexing it below checks that), so its keys list them.
const COUNTER_NAMES = Object.keys(METRIC_NAMES.counters) as CounterName[];

/**
 * Where the runtime records what it does: the counters behind {@link MetricsSnapshot}, and the
 * same events as OpenTelemetry instruments on `meter` (no-ops unless the application installed
 * an OpenTelemetry SDK). Each snapshot counter feeds the instrument {@link METRIC_NAMES} maps it
 * to, with duroxide's labels.
 * @internal
 */
export class RuntimeMetrics {
  private readonly counts = new Map<CounterName, number>();
  private readonly counters = new Map<string, Counter>();
  private readonly histograms = new Map<HistogramName, Histogram>();

  constructor(private readonly meter: Meter) {}

  /** Adds one to `counter` and to its OpenTelemetry counter, labelled with `attributes`. */
  increment(counter: CounterName, attributes: Attributes = {}): void {
    this.counts.set(counter, (this.counts.get(counter) ?? 0) + 1);
    const mapped: MappedCounter | null = METRIC_NAMES.counters[counter];
    if (mapped === null) return;
    let instrument = this.counters.get(mapped.name);
    if (!instrument) {
      instrument = this.meter.createCounter(mapped.name, { description: mapped.description });
      this.counters.set(mapped.name, instrument);
    }
    instrument.add(1, { ...mapped.attributes, ...attributes });
  }

  /** Records one value (in the histogram's unit) on a duration histogram. */
  record(histogram: HistogramName, value: number, attributes: Attributes = {}): void {
    let instrument = this.histograms.get(histogram);
    if (!instrument) {
      const { description, unit } = METRIC_NAMES.histograms[histogram];
      instrument = this.meter.createHistogram(histogram, { description, unit });
      this.histograms.set(histogram, instrument);
    }
    instrument.record(value, attributes);
  }

  snapshot(): MetricsSnapshot {
    const snapshot = {} as Record<CounterName, number>;
    for (const name of COUNTER_NAMES) snapshot[name] = this.counts.get(name) ?? 0;
    return snapshot;
  }
}
