import {
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

/** The names of the spans the runtime starts: one per orchestration turn, one per activity. */
export const SPAN_NAMES = {
  orchestrationTurn: 'duro.orchestration.turn',
  activityExecution: 'duro.activity.execute',
} as const;

/**
 * The attributes the runtime puts on its spans. A turn carries the instance, execution,
 * orchestration name and version, attempt and disposition; an activity carries the instance,
 * execution, orchestration name and version, activity name and id, attempt and outcome.
 */
export const SPAN_ATTRIBUTES = {
  instanceId: 'duro.instance_id',
  executionId: 'duro.execution_id',
  orchestrationName: 'duro.orchestration.name',
  orchestrationVersion: 'duro.orchestration.version',
  activityName: 'duro.activity.name',
  activityId: 'duro.activity.id',
  attempt: 'duro.attempt',
  workerId: 'duro.worker_id',
  turnDisposition: 'duro.turn.disposition',
  activityOutcome: 'duro.activity.outcome',
} as const;

/**
 * Runs units of work inside OpenTelemetry spans (no-ops unless the application installed an
 * SDK). The span is the active one while the body runs, so spans the body starts (a traced `pg`
 * query, say) become its children when the application has a context manager.
 * @internal
 */
export class RuntimeTracing {
  constructor(private readonly tracer: Tracer) {}

  /** Runs `body` in a span named `name`; a thrown error is recorded on the span and rethrown. */
  inSpan<T>(name: string, attributes: Attributes, body: (span: Span) => Promise<T>): Promise<T> {
    return this.tracer.startActiveSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes },
      async (span) => {
        try {
          return await body(span);
        } catch (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }
}
