import {
  isInstanceStatus,
  INSTANCE_STATUSES,
  type InstancePageRequest,
} from '@duro/provider-postgres/inspection';
import { ApiError, type DashboardContext } from '../dashboard-context.js';
import type { InstancePageJson, StatusCountsJson } from '../shared/api-types.js';

/**
 * `GET api/instances`: a page of instances. Query parameters (each optional, empty means absent):
 * `status`, `name`, `version`, `prefix`, `from` and `before` (epoch ms), `limit`, `after`.
 */
export async function listInstances(
  context: DashboardContext,
  query: URLSearchParams,
): Promise<InstancePageJson> {
  const text = (name: string): string | undefined => {
    const value = query.get(name);
    return value === null || value === '' ? undefined : value;
  };
  const number = (name: string): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value))
      throw new ApiError(400, `${name} must be a whole number, got '${value}'`);
    return Number(value);
  };
  const status = text('status');
  if (status !== undefined && !isInstanceStatus(status)) {
    throw new ApiError(
      400,
      `status must be one of ${INSTANCE_STATUSES.join(', ')}, got '${status}'`,
    );
  }
  const entries: [keyof InstancePageRequest, string | number | undefined][] = [
    ['status', status],
    ['orchestrationName', text('name')],
    ['orchestrationVersion', text('version')],
    ['idPrefix', text('prefix')],
    ['createdFromMs', number('from')],
    ['createdBeforeMs', number('before')],
    ['limit', number('limit')],
    ['after', text('after')],
  ];
  const request = Object.fromEntries(
    entries.filter(([, value]) => value !== undefined),
  ) as InstancePageRequest;
  return context.inspector.listInstances(request);
}

/** `GET api/counts`: instances by status. */
export async function countInstances(context: DashboardContext): Promise<StatusCountsJson> {
  const countedAtMs = Date.now();
  return { counts: await context.inspector.countInstancesByStatus(), countedAtMs };
}
