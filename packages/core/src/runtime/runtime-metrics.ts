/**
 * Counters of what a runtime did since it started, as `Runtime.metricsSnapshot()` returns them.
 * Names follow duroxide's metric names in camelCase.
 */
export interface MetricsSnapshot {
  readonly orchStarts: number;
  readonly orchCompletions: number;
  readonly orchFailures: number;
  readonly orchApplicationErrors: number;
  readonly orchInfrastructureErrors: number;
  readonly orchConfigurationErrors: number;
  readonly orchPoison: number;
  readonly orchContinueAsNew: number;
  readonly orchTurns: number;
  readonly activitySuccess: number;
  readonly activityAppErrors: number;
  readonly activityInfraErrors: number;
  readonly activityPoison: number;
  readonly activityCancelled: number;
}

type Counter = keyof MetricsSnapshot;

/** Mutable counters behind {@link MetricsSnapshot}. @internal */
export class RuntimeMetrics {
  private readonly counts = new Map<Counter, number>();

  increment(counter: Counter): void {
    this.counts.set(counter, (this.counts.get(counter) ?? 0) + 1);
  }

  snapshot(): MetricsSnapshot {
    const get = (counter: Counter): number => this.counts.get(counter) ?? 0;
    return {
      orchStarts: get('orchStarts'),
      orchCompletions: get('orchCompletions'),
      orchFailures: get('orchFailures'),
      orchApplicationErrors: get('orchApplicationErrors'),
      orchInfrastructureErrors: get('orchInfrastructureErrors'),
      orchConfigurationErrors: get('orchConfigurationErrors'),
      orchPoison: get('orchPoison'),
      orchContinueAsNew: get('orchContinueAsNew'),
      orchTurns: get('orchTurns'),
      activitySuccess: get('activitySuccess'),
      activityAppErrors: get('activityAppErrors'),
      activityInfraErrors: get('activityInfraErrors'),
      activityPoison: get('activityPoison'),
      activityCancelled: get('activityCancelled'),
    };
  }
}
