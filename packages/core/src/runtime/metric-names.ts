/** One OpenTelemetry counter a snapshot counter feeds, with the labels it always carries. @internal */
export interface MappedCounter {
  readonly name: string;
  readonly description: string;
  readonly attributes?: Readonly<Record<string, string>>;
}

const orchestrationFailures = (errorType: string): MappedCounter => ({
  name: 'duroxide_orchestration_failures_total',
  description: 'Orchestration executions that failed, by error_type',
  attributes: { error_type: errorType },
});

const activityExecutions = (outcome: string): MappedCounter => ({
  name: 'duroxide_activity_executions_total',
  description: 'Activity executions, by outcome',
  attributes: { outcome },
});

/**
 * The OpenTelemetry names of the runtime's metrics. Names that duroxide 0.1.32 has
 * (`src/runtime/observability.rs`) are duroxide's, with its labels, so one dashboard serves a
 * mixed fleet; the poison-failed, ack-failure, lock-steal and timer-queue metrics are duro's,
 * named in the same scheme. A snapshot counter mapped to `null` has no instrument of its own
 * (duroxide counts it through a label of another one).
 * @internal
 */
export const METRIC_NAMES = {
  counters: {
    orchStarts: {
      name: 'duroxide_orchestration_starts_total',
      description: 'Orchestration executions started (new instances and continue-as-new)',
    },
    orchCompletions: {
      name: 'duroxide_orchestration_completions_total',
      description: 'Orchestration executions that completed successfully',
      attributes: { status: 'success' },
    },
    orchFailures: null,
    orchApplicationErrors: orchestrationFailures('app_error'),
    orchInfrastructureErrors: orchestrationFailures('infrastructure_error'),
    orchConfigurationErrors: orchestrationFailures('config_error'),
    orchPoison: {
      name: 'duroxide_orchestration_poison_total',
      description: 'Orchestration messages past max attempts whose instance was failed as poison',
    },
    orchPoisonFailed: {
      name: 'duroxide_orchestration_poison_failed_total',
      description:
        'Orchestration poison dispositions whose ack failed; the messages are still circulating',
    },
    orchContinueAsNew: {
      name: 'duroxide_orchestration_continue_as_new_total',
      description: 'Orchestration executions that continued as new',
    },
    orchTurns: null,
    orchAckFailures: {
      name: 'duroxide_orchestration_ack_failures_total',
      description: 'Orchestration turns whose final ack failed (poison dispositions included)',
    },
    orchLockSteals: {
      name: 'duroxide_orchestration_lock_steals_total',
      description: 'Orchestration turns whose instance lock could not be renewed while they ran',
    },
    orchDispatcherItemsFetched: {
      name: 'duroxide_orchestration_dispatcher_items_fetched',
      description: 'Orchestration items fetched by the orchestration dispatcher',
    },
    activitySuccess: activityExecutions('success'),
    activityAppErrors: activityExecutions('app_error'),
    activityInfraErrors: activityExecutions('infra_error'),
    activityConfigErrors: activityExecutions('config_error'),
    activityPoison: {
      name: 'duroxide_activity_poison_total',
      description: 'Activities past max attempts that were failed as poison',
    },
    activityPoisonFailed: {
      name: 'duroxide_activity_poison_failed_total',
      description: 'Activity poison dispositions whose ack failed; the item is still circulating',
    },
    activityCancelled: activityExecutions('cancelled'),
    activityAckFailures: {
      name: 'duroxide_activity_ack_failures_total',
      description: 'Activity results or poison failures whose ack failed',
    },
    activityLockSteals: {
      name: 'duroxide_activity_lock_steals_total',
      description: 'Activities whose lock was taken away while they ran',
    },
    workerDispatcherItemsFetched: {
      name: 'duroxide_worker_dispatcher_items_fetched',
      description: 'Work items fetched by the worker dispatcher',
    },
    suborchestrationCalls: {
      name: 'duroxide_suborchestration_calls_total',
      description: 'Sub-orchestrations scheduled, by parent_orchestration and child_orchestration',
    },
    providerErrors: {
      name: 'duroxide_provider_errors_total',
      description: 'Provider calls that failed, by operation and error_type',
    },
  } satisfies Record<string, MappedCounter | null>,
  histograms: {
    duroxide_orchestration_dispatcher_processing_duration_ms: {
      description: 'Time to process one orchestration turn, fetch to ack',
      unit: 'ms',
    },
    duroxide_worker_dispatcher_execution_duration_ms: {
      description: 'Time to process one work item, fetch to ack',
      unit: 'ms',
    },
    duroxide_activity_duration_seconds: {
      description: 'Time an activity body ran, by activity_name and outcome',
      unit: 's',
    },
    duroxide_orchestration_duration_seconds: {
      description: 'Time from an execution start to its terminal event, by status',
      unit: 's',
    },
  },
  gauges: {
    orchestratorQueue: 'duroxide_orchestrator_queue_depth',
    workerQueue: 'duroxide_worker_queue_depth',
    timerQueue: 'duroxide_timer_queue_depth',
  },
} as const;

/** The name of one of the runtime's histograms. @internal */
export type HistogramName = keyof typeof METRIC_NAMES.histograms;
