import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ErrorDetails } from '../../model/error-details.js';
import type { WorkItem, WorkItemOf } from '../../model/work-item.js';
import { encodeWorkItem } from '../../model/work-item-codec.js';
import type { Provider } from '../../provider/provider.js';
import { ActivityContext } from '../activity-context.js';
import { errorText } from '../error-text.js';
import type { Logger } from '../logger.js';
import type { ActivityRegistry } from '../registry.js';
import { parsePayload } from '../../model/payload.js';
import { SPAN_ATTRIBUTES } from '../runtime-tracing.js';
import type { RuntimeMetrics } from '../runtime-metrics.js';
import type { RuntimeTracing } from '../runtime-tracing.js';
import {
  renewalIntervalMs,
  unregisteredBackoffMs,
  type ResolvedRuntimeOptions,
} from '../runtime-options.js';
import { callWithRetries } from '../provider-retry.js';
import { builtinActivity } from './builtin-activities.js';
import { sleepUnlessStopped, startRenewal, unlessStopped } from './stoppable-wait.js';
import type { ActivityPlace } from './activity-room.js';
import type { OrchestrationIdentities } from '../turn/orchestration-identities.js';
import type { TrackedActivity } from './work-item-acks.js';

/** What running one activity needs. @internal */
export interface ActivityDependencies {
  readonly provider: Provider;
  readonly options: ResolvedRuntimeOptions;
  readonly activities: ActivityRegistry;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly tracing: RuntimeTracing;
  /** Activity bodies still running after their result stopped mattering (for shutdown). */
  readonly stragglers: Set<Promise<unknown>>;
  /** Fires when shutdown's budget ran out: running activities give their locks back. */
  readonly halt: AbortSignal;
  /** The activity as the runtime's acknowledger follows it; its ack goes through it. */
  readonly tracked: TrackedActivity;
  /** The orchestration each activity belongs to, for its context. */
  readonly identities: OrchestrationIdentities;
}

type Finished =
  { readonly ok: true; readonly result: string } | { readonly ok: false; readonly error: string };

/** One fetched `ActivityExecute`, the place it runs in and its span. @internal */
export interface ActivityRun {
  readonly item: WorkItemOf<'ActivityExecute'>;
  readonly lockToken: string;
  readonly attemptCount: number;
  readonly workerId: string;
  /** Kept by the activity's body until it settles (see {@link runActivity}). */
  readonly place: ActivityPlace;
  readonly span: Span;
}

/**
 * Runs one fetched `ActivityExecute` as duroxide's worker does: poison past `maxAttempts`,
 * unregistered names abandoned with backoff, otherwise the handler runs while its lock is
 * renewed; its result (or failure) is acknowledged together with the completion message. When
 * the lock cannot be renewed (the orchestration ended, was cancelled, or the activity lost a
 * race) the context's signal fires, the body gets the grace period to stop, and the lock is
 * released without a completion. When shutdown's budget runs out first, the signal fires too
 * and the lock is abandoned without counting an attempt, so another runtime runs it. The
 * outcome goes on the span and in the metrics; a poison failure counts as poison only once its
 * ack committed. The body keeps the activity's place until it settles, which is before the
 * acknowledgement; a body that ignores cancellation keeps it longer, since it still runs.
 * @internal
 */
export async function runActivity(deps: ActivityDependencies, run: ActivityRun): Promise<void> {
  const { options, logger } = deps;
  const { item, lockToken, attemptCount, span } = run;
  const outcome = (value: string): void => {
    span.setAttribute(SPAN_ATTRIBUTES.activityOutcome, value);
  };
  if (attemptCount > options.maxAttempts) {
    logger.warn({}, 'Activity exceeded max attempts, marking as poison');
    const details: ErrorDetails = {
      type: 'Poison',
      attemptCount,
      maxAttempts: options.maxAttempts,
      messageType: {
        type: 'Activity',
        instance: item.instance,
        executionId: item.executionId,
        activityName: item.name,
        activityId: item.id,
      },
      message: encodeWorkItem(item),
    };
    if (await ack(deps, lockToken, failure(item, details))) {
      deps.metrics.increment('activityPoison');
      outcome('poisoned');
    } else {
      deps.metrics.increment('activityPoisonFailed');
      logger.warn(
        {},
        'Poison disposition was not committed (ack failed); the item is still queued',
      );
      outcome('poison_failed');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'poison_failed' });
    }
    return;
  }
  const builtin = builtinActivity(item.name);
  const handler = builtin ? null : deps.activities.resolve(item.name);
  if (!builtin && !handler) {
    const backoffMs = unregisteredBackoffMs(options, attemptCount);
    logger.warn({ backoffMs }, 'Activity not registered, abandoning with backoff');
    deps.metrics.increment('activityConfigErrors', { activity_name: item.name });
    await deps.provider.abandonWorkItem(lockToken, backoffMs, false).catch(() => undefined);
    outcome('abandoned');
    return;
  }

  const controller = new AbortController();
  const stopRenewal = startRenewal(
    renewalIntervalMs(options.workerLockTimeoutMs, options.workerLockRenewalBufferMs),
    () => deps.provider.renewWorkItemLock(lockToken, options.workerLockTimeoutMs),
    (error) => {
      deps.metrics.increment('activityLockSteals');
      logger.info({ error: String(error) }, 'Activity lock lost; cancelling the activity');
      controller.abort(new Error(`activity lock lost: ${String(error)}`));
    },
  );
  try {
    const ctx = await activityContext(deps, run, controller);
    span.setAttributes({
      [SPAN_ATTRIBUTES.orchestrationName]: ctx.orchestrationName,
      [SPAN_ATTRIBUTES.orchestrationVersion]: ctx.orchestrationVersion,
    });
    const startedMs = Date.now();
    const body = builtin
      ? builtin(ctx, item.input, deps.provider)
      : invokeUserActivity(handler ?? (() => undefined), ctx, item);
    run.place.holdUntil(body);
    const finished = await unlessStopped(body, [controller.signal, deps.halt]);
    if (deps.halt.aborted && !finished) {
      // Shutdown ran out of time: the result would come too late to matter; another runtime
      // runs the activity again once the lock is back.
      controller.abort(new Error('runtime shut down'));
      await deps.provider.abandonWorkItem(lockToken, null, true).catch(() => undefined);
      outcome('abandoned');
      return;
    }
    if (finished) {
      const completion = finished.ok
        ? success(item, finished.result)
        : failure(item, applicationError(finished.error));
      const acked = await ack(deps, lockToken, completion);
      const result = !acked ? 'infra_error' : finished.ok ? 'success' : 'app_error';
      deps.metrics.increment(
        result === 'success'
          ? 'activitySuccess'
          : result === 'app_error'
            ? 'activityAppErrors'
            : 'activityInfraErrors',
        { activity_name: item.name },
      );
      deps.metrics.record('duroxide_activity_duration_seconds', (Date.now() - startedMs) / 1_000, {
        activity_name: item.name,
        outcome: result,
        tag: item.tag ?? 'default',
      });
      outcome(result);
      if (result !== 'success') {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: finished.ok ? 'ack failed' : finished.error,
        });
      }
      return;
    }
    deps.metrics.increment('activityCancelled', { activity_name: item.name });
    outcome('cancelled');
    const grace = new AbortController();
    const settled = body.then(() => grace.abort());
    await sleepUnlessStopped(options.activityCancellationGracePeriodMs, grace.signal);
    if (!grace.signal.aborted) {
      logger.warn({}, 'Activity did not finish within grace period; its result is discarded');
      deps.stragglers.add(settled);
      void settled.finally(() => deps.stragglers.delete(settled));
    }
    await deps.tracked.acknowledge(lockToken, null).catch(() => undefined);
  } finally {
    stopRenewal();
  }
}

async function invokeUserActivity(
  handler: NonNullable<ReturnType<ActivityRegistry['resolve']>>,
  ctx: ActivityContext,
  item: WorkItemOf<'ActivityExecute'>,
): Promise<Finished> {
  try {
    const value: unknown = await handler(ctx, parsePayload(item.input));
    const text = JSON.stringify(value === undefined ? null : value) as string | undefined;
    if (text === undefined)
      return {
        ok: false,
        error: `Activity '${item.name}' returned ${typeof value}, which cannot be written as JSON`,
      };
    return { ok: true, result: text };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

async function activityContext(
  deps: ActivityDependencies,
  { item, attemptCount, workerId }: ActivityRun,
  controller: AbortController,
): Promise<ActivityContext> {
  const identity = await deps.identities.of(item.instance, item.executionId);
  return new ActivityContext(
    {
      instanceId: item.instance,
      executionId: item.executionId,
      orchestrationName: identity.name,
      orchestrationVersion: identity.version,
      activityName: item.name,
      activityId: item.id,
      workerId,
      sessionId: item.sessionId ?? null,
      attempt: attemptCount,
    },
    item.tag ?? null,
    controller,
    deps.provider,
    deps.logger,
  );
}

function applicationError(message: string): ErrorDetails {
  return { type: 'Application', kind: { type: 'ActivityFailed' }, message, retryable: false };
}

function success(item: WorkItemOf<'ActivityExecute'>, result: string): WorkItem {
  return {
    type: 'ActivityCompleted',
    instance: item.instance,
    executionId: item.executionId,
    id: item.id,
    result,
  };
}

function failure(item: WorkItemOf<'ActivityExecute'>, details: ErrorDetails): WorkItem {
  return {
    type: 'ActivityFailed',
    instance: item.instance,
    executionId: item.executionId,
    id: item.id,
    details,
  };
}

/**
 * Acknowledges a work item, trying again after retryable failures (a dropped connection: giving
 * up at once left the lock held until it expired); a failure is logged, counted, and the lock
 * given back.
 */
async function ack(
  deps: ActivityDependencies,
  lockToken: string,
  completion: WorkItem,
): Promise<boolean> {
  const failure = await callWithRetries('ack_work_item', () =>
    deps.tracked.acknowledge(lockToken, completion),
  );
  if (failure === null) return true;
  deps.metrics.increment('activityAckFailures');
  deps.logger.warn({ error: failure.message }, 'worker: atomic ack failed, abandoning work item');
  await callWithRetries('abandon_work_item', () =>
    deps.provider.abandonWorkItem(lockToken, 100, false),
  );
  return false;
}
