import type { WorkItem, WorkItemOf } from '../model/work-item.js';
import { ProviderError } from './provider-error.js';

/**
 * Checks that an item can go to the orchestrator queue, for providers' enqueues and acks.
 * @throws {ProviderError} (permanent) for an `ActivityExecute`, which belongs to the worker queue.
 */
export function requireOrchestratorItem(operation: string, item: WorkItem): WorkItem {
  if (item.type === 'ActivityExecute') {
    throw ProviderError.permanent(
      operation,
      `ActivityExecute for instance ${item.instance} belongs to the worker queue, not the orchestrator queue`,
    );
  }
  return item;
}

/**
 * Checks that an item can go to the worker queue, for providers' enqueues and acks.
 * @throws {ProviderError} (permanent) for anything but an `ActivityExecute`.
 */
export function requireActivity(operation: string, item: WorkItem): WorkItemOf<'ActivityExecute'> {
  if (item.type !== 'ActivityExecute') {
    throw ProviderError.permanent(
      operation,
      `only ActivityExecute belongs to the worker queue, got ${item.type}`,
    );
  }
  return item;
}
