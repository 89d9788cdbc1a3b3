import { errorDisplayMessage, encodeErrorDetails } from '@duro/core';
import { explainDiagnosis, type HistoryRecord } from '@duro/provider-postgres/inspection';
import { ApiError, type DashboardContext } from '../dashboard-context.js';
import { buildExecutionTimeline } from '../execution-timeline.js';
import type { ExecutionTimelineJson, InstanceDetailJson } from '../shared/api-types.js';

/** Most events a timeline reads; the events table says how many more the execution has. */
const TIMELINE_EVENTS = 5_000;

/** The `id` query parameter. */
export function instanceIdParameter(query: URLSearchParams): string {
  const id = query.get('id');
  if (id === null || id === '') throw new ApiError(400, 'name the instance: ?id=INSTANCE');
  return id;
}

/** `GET api/instance?id=`: status, input, outcome, custom status, KV, executions, tree and why. */
export async function readInstanceDetail(
  context: DashboardContext,
  query: URLSearchParams,
): Promise<InstanceDetailJson> {
  const instanceId = instanceIdParameter(query);
  const { inspector } = context;
  const summary = await inspector.readInstance(instanceId);
  if (summary === null) throw new ApiError(404, `instance '${instanceId}' not found`);
  // The first event holds the input, the last one the outcome; both are read without the rest.
  const ends = await inspector.readExecutionHistory(instanceId, summary.currentExecutionId, 1);
  const [first] = ends.records;
  const last = ends.lastRecord ?? first;
  const [keyValues, tree, diagnosis] = await Promise.all([
    context.client.getKvAllValues(instanceId),
    inspector.readInstanceTree(instanceId),
    inspector.readInstanceDiagnosis(instanceId),
  ]);
  const { verdict, findings } = explainDiagnosis(diagnosis, context.fleet, Date.now());
  const { executions, executionCount, ...instance } = summary;
  return {
    ...instance,
    input: startInput(first),
    output: last?.event?.kind.type === 'OrchestrationCompleted' ? last.event.kind.output : null,
    error:
      last?.event?.kind.type === 'OrchestrationFailed'
        ? {
            message: errorDisplayMessage(last.event.kind.details),
            details: encodeErrorDetails(last.event.kind.details),
          }
        : null,
    keyValues,
    executions,
    executionCount,
    tree,
    why: { verdict, findings },
  };
}

function startInput(record: HistoryRecord | undefined): string | null {
  return record?.event?.kind.type === 'OrchestrationStarted' ? record.event.kind.input : null;
}

/** `GET api/execution?id=&execution=`: the timeline and events of one execution. */
export async function readExecutionTimeline(
  context: DashboardContext,
  query: URLSearchParams,
): Promise<ExecutionTimelineJson> {
  const instanceId = instanceIdParameter(query);
  const text = query.get('execution') ?? '';
  if (!/^[1-9]\d{0,15}$/.test(text)) {
    throw new ApiError(400, `execution must be an execution number (1, 2, ...), got '${text}'`);
  }
  const executionId = Number(text);
  const history = await context.inspector.readExecutionHistory(
    instanceId,
    executionId,
    TIMELINE_EVENTS,
  );
  if (history.records.length === 0) {
    throw new ApiError(404, `instance '${instanceId}' has no execution ${executionId}`);
  }
  return buildExecutionTimeline(
    instanceId,
    executionId,
    history.records,
    history.eventCount,
    Date.now(),
  );
}
