import {
  ProviderError,
  encodeEvent,
  workItemToWire,
  type Event,
  type ExecutionMetadata,
  type OrchestrationTurnCommit,
  type ScheduledActivityIdentifier,
  type WorkItem,
} from '@duro/core';

/**
 * The `event_type` column duroxide-pg writes: the Rust `Debug` text of an `Event` up to its first
 * `{`, which is always the struct name. Nothing reads it; it is kept for identical rows.
 */
const HISTORY_EVENT_TYPE = 'Event';

/**
 * The jsonb arguments of `ack_orchestration_item`, as JSON text, built as duroxide-pg's
 * `ack_orchestration_item` in `src/provider.rs` builds them, so the rows a turn writes are the
 * rows a Rust worker writes.
 * @internal
 */
export interface AckPayload {
  /** `[{event_id, event_type, event_data}]`, `event_data` being the event's compact JSON text. */
  readonly historyDelta: string;
  /** The work items as serde values (externally tagged objects). */
  readonly workerItems: string;
  readonly orchestratorItems: string;
  /** The metadata object the procedure reads, custom status and key-value mutations included. */
  readonly metadata: string;
  /** `[{instance, execution_id, activity_id}]`. */
  readonly cancelledActivities: string;
}

/**
 * What the last `CustomStatusUpdated` of the turn did: `set` a value, `clear` it, or nothing
 * (both `null`) when the turn has no such event.
 */
function customStatusChange(events: readonly Event[]): {
  action: 'set' | 'clear' | null;
  value: string | null;
} {
  let change: { action: 'set' | 'clear' | null; value: string | null } = {
    action: null,
    value: null,
  };
  for (const event of events) {
    if (event.kind.type === 'CustomStatusUpdated') {
      change =
        event.kind.status === null
          ? { action: 'clear', value: null }
          : { action: 'set', value: event.kind.status };
    }
  }
  return change;
}

/** The key-value mutations of the turn, in event order, as the procedure reads them. */
function kvMutations(events: readonly Event[]): Record<string, unknown>[] {
  const mutations: Record<string, unknown>[] = [];
  for (const { kind } of events) {
    switch (kind.type) {
      case 'KeyValueSet':
        mutations.push({
          action: 'set',
          key: kind.key,
          value: kind.value,
          last_updated_at_ms: kind.lastUpdatedAtMs,
        });
        break;
      case 'KeyValueCleared':
        mutations.push({ action: 'clear_key', key: kind.key });
        break;
      case 'KeyValuesCleared':
        mutations.push({ action: 'clear_all' });
        break;
      default:
        break;
    }
  }
  return mutations;
}

/**
 * History rows as the ack and append procedures read them: `{event_id, event_type, event_data}`,
 * `event_data` being the event's compact JSON text.
 * @throws {ProviderError} (permanent) of `operation` when an event has no id (`event_id` 0), as
 * duroxide-pg refuses, or cannot be encoded.
 * @internal
 */
export function historyRows(
  operation: string,
  events: readonly Event[],
  instance?: string,
): Record<string, unknown>[] {
  const suffix = instance === undefined ? '' : ` (instance ${instance})`;
  return events.map((event) => {
    if (event.eventId === 0) {
      throw ProviderError.permanent(operation, `event_id must be set by runtime${suffix}`);
    }
    try {
      return {
        event_id: event.eventId,
        event_type: HISTORY_EVENT_TYPE,
        event_data: encodeEvent(event),
      };
    } catch (error) {
      throw ProviderError.permanent(
        operation,
        `Failed to serialize event: ${String(error)}${suffix}`,
        {
          cause: error,
        },
      );
    }
  });
}

/**
 * Builds the arguments of one ack.
 * @throws {ProviderError} (permanent) when an event has no id (`event_id` 0), as duroxide-pg
 * refuses, or an event or work item cannot be encoded.
 */
export function buildAckPayload(
  historyDelta: readonly Event[],
  workerItems: readonly WorkItem[],
  orchestratorItems: readonly WorkItem[],
  metadata: ExecutionMetadata,
  cancelledActivities: readonly ScheduledActivityIdentifier[],
  instance?: string,
): AckPayload {
  const operation = 'ack_orchestration_item';
  const rows = historyRows(operation, historyDelta, instance);
  try {
    const status = customStatusChange(historyDelta);
    const pinned = metadata.pinnedDuroxideVersion;
    return {
      historyDelta: JSON.stringify(rows),
      workerItems: JSON.stringify(workerItems.map(workItemToWire)),
      orchestratorItems: JSON.stringify(orchestratorItems.map(workItemToWire)),
      metadata: JSON.stringify({
        orchestration_name: metadata.orchestrationName ?? null,
        orchestration_version: metadata.orchestrationVersion ?? null,
        status: metadata.status ?? null,
        output: metadata.output ?? null,
        parent_instance_id: metadata.parentInstanceId ?? null,
        pinned_duroxide_version:
          pinned === undefined
            ? null
            : { major: pinned.major, minor: pinned.minor, patch: pinned.patch },
        custom_status_action: status.action,
        custom_status_value: status.value,
        kv_mutations: kvMutations(historyDelta),
      }),
      cancelledActivities: JSON.stringify(
        cancelledActivities.map((a) => ({
          instance: a.instance,
          execution_id: a.executionId,
          activity_id: a.activityId,
        })),
      ),
    };
  } catch (error) {
    const suffix = instance === undefined ? '' : ` (instance ${instance})`;
    throw ProviderError.permanent(
      operation,
      `Failed to serialize work items: ${String(error)}${suffix}`,
      {
        cause: error,
      },
    );
  }
}

/** {@link buildAckPayload} of one turn's commit. @internal */
export function ackPayloadOf(commit: OrchestrationTurnCommit, instance?: string): AckPayload {
  return buildAckPayload(
    commit.historyDelta,
    commit.workerItems,
    commit.orchestratorItems,
    commit.metadata,
    commit.cancelledActivities,
    instance,
  );
}
