import { ClientError } from '@duro/core';
import { ApiError, type DashboardContext } from '../dashboard-context.js';
import type { ActionName, ActionRequests, ActionResultJson } from '../shared/api-types.js';

/** Who asked for an action, for the log line. */
export interface ActionRequester {
  readonly address: string;
  readonly credential: string;
}

type Body = Readonly<Record<string, unknown>>;

const ACTIONS: {
  readonly [A in ActionName]: {
    read(body: Body): ActionRequests[A];
    run(context: DashboardContext, request: ActionRequests[A]): Promise<string>;
  };
} = {
  'raise-event': {
    read: (body) => ({
      instanceId: requiredText(body, 'instanceId'),
      eventName: requiredText(body, 'eventName'),
      data: jsonText(body, 'data'),
    }),
    async run(context, request) {
      await requireInstance(context, request.instanceId);
      await context.client.raiseEvent(
        request.instanceId,
        request.eventName,
        JSON.parse(request.data),
      );
      return `raised '${request.eventName}' on ${request.instanceId}`;
    },
  },
  'enqueue-event': {
    read: (body) => ({
      instanceId: requiredText(body, 'instanceId'),
      queueName: requiredText(body, 'queueName'),
      data: jsonText(body, 'data'),
    }),
    async run(context, request) {
      await requireInstance(context, request.instanceId);
      await context.client.enqueueEvent(
        request.instanceId,
        request.queueName,
        JSON.parse(request.data),
      );
      return `enqueued a message on ${request.instanceId} queue '${request.queueName}'`;
    },
  },
  cancel: {
    read: (body) => ({
      instanceId: requiredText(body, 'instanceId'),
      reason: optionalText(body, 'reason'),
    }),
    async run(context, request) {
      const status = await requireInstance(context, request.instanceId);
      if (status !== 'Running') {
        throw new ApiError(409, `${request.instanceId} is ${status}; there is nothing to cancel`);
      }
      await context.client.cancelInstance(request.instanceId, request.reason);
      return `cancellation requested for ${request.instanceId}`;
    },
  },
  delete: {
    read: (body) => ({
      instanceId: requiredText(body, 'instanceId'),
      force: body.force === true,
    }),
    async run(context, request) {
      await requireInstance(context, request.instanceId);
      const result = await context.management.deleteInstance(request.instanceId, request.force);
      return (
        `deleted ${result.instancesDeleted} instance(s), ${result.executionsDeleted} execution(s), ` +
        `${result.eventsDeleted} event(s) and ${result.queueMessagesDeleted} queued message(s)`
      );
    },
  },
  prune: {
    read: (body) => {
      const keepLast = body.keepLast;
      if (typeof keepLast !== 'number' || !Number.isInteger(keepLast) || keepLast < 1) {
        throw new ApiError(
          400,
          `keepLast must be a whole number of at least 1, got ${String(keepLast)}`,
        );
      }
      return { instanceId: requiredText(body, 'instanceId'), keepLast };
    },
    async run(context, request) {
      await requireInstance(context, request.instanceId);
      const result = await context.management.pruneExecutions(request.instanceId, {
        keepLast: request.keepLast,
      });
      return `pruned ${result.executionsDeleted} execution(s) and ${result.eventsDeleted} event(s) of ${request.instanceId}`;
    },
  },
};

/** Whether `name` is an action of the API. */
export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(ACTIONS, name);
}

/**
 * Runs the action `name` with the JSON `body` and logs it: one line with what was asked, by
 * whom, and how it ended.
 * @throws {ApiError} for a body that names no instance or carries bad values, an instance that
 * does not exist, or one the action does not apply to.
 */
export async function runAction<A extends ActionName>(
  context: DashboardContext,
  name: A,
  body: unknown,
  requester: ActionRequester,
): Promise<ActionResultJson> {
  const action = ACTIONS[name];
  const who = `from ${requester.address} (${requester.credential})`;
  let request: ActionRequests[A] | null = null;
  try {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, 'the body must be a JSON object');
    }
    request = action.read(body as Body);
    const done = await action.run(context, request);
    context.log(`action ${name} ${JSON.stringify(request)} ${who}: ${done}`);
    return { done };
  } catch (error) {
    const failure = asApiError(error);
    context.log(
      `action ${name} ${request === null ? '(unreadable request)' : JSON.stringify(request)} ${who} failed: ${failure.message}`,
    );
    throw failure;
  }
}

function asApiError(error: unknown): Error {
  if (error instanceof ApiError) return error;
  if (ClientError.isInstance(error)) {
    if (error.kind === 'InstanceNotFound') return new ApiError(404, error.message);
    if (error.kind === 'InvalidInput') return new ApiError(400, error.message);
    if (error.kind === 'InstanceStillRunning' || error.kind === 'CannotDeleteSubOrchestration') {
      return new ApiError(409, error.message);
    }
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function requireInstance(context: DashboardContext, instanceId: string): Promise<string> {
  const summary = await context.inspector.readInstance(instanceId, 1);
  if (summary === null) throw new ApiError(404, `instance '${instanceId}' not found`);
  return summary.status ?? 'unknown';
}

function requiredText(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') {
    throw new ApiError(400, `${field} must be a non-empty string`);
  }
  return value;
}

function optionalText(body: Body, field: string): string {
  const value = body[field] ?? '';
  if (typeof value !== 'string') throw new ApiError(400, `${field} must be a string`);
  return value;
}

/** A field that must hold JSON text (the payload of an event or message); empty means null. */
function jsonText(body: Body, field: string): string {
  const text = optionalText(body, field).trim();
  if (text === '') return 'null';
  try {
    JSON.parse(text);
  } catch {
    throw new ApiError(400, `${field} must be JSON (a string needs its quotes: "text")`);
  }
  return text;
}
