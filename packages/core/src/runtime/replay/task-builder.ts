import { parsePayload } from '../../model/payload.js';
import { SUB_ORCH_AUTO_PREFIX, usesReservedRootMarker } from '../../model/sub-orchestration-id.js';
import { SUB_ORCH_PENDING_PREFIX } from './action.js';
import { OrchestrationPanic } from './generator-node.js';
import type { ReplayState } from './replay-state.js';
import { RetryNode } from './retry-node.js';
import type { ScheduledTask } from './scheduled-task.js';
import {
  DurableNode,
  JoinNode,
  MappedNode,
  NeverNode,
  ReadyNode,
  SelectNode,
  failed,
  ok,
  type Outcome,
  type TaskNode,
} from './task-node.js';

/** Names of the built-in activities behind `newGuid`, `utcNow` and `getValueFromInstance`. */
export const SYSCALL_NEW_GUID = '__duroxide_syscall:new_guid';
export const SYSCALL_UTC_NOW_MS = '__duroxide_syscall:utc_now_ms';
export const SYSCALL_GET_KV_VALUE = '__duroxide_syscall:get_kv_value';
/** Prefix reserved for built-in activities; user activities cannot use it. */
export const SYSCALL_PREFIX = '__duroxide_syscall:';
/** What continue-as-new resolves to inside `all` or `race`: duroxide-node's refusal text. */
const UNSUPPORTED_IN_COMPOSITION = 'unsupported task in join/select';

/**
 * Turns a yielded descriptor into a task node, emitting its actions into the replay state in
 * the order duroxide-node's bridge does (a join or race schedules its tasks left to right).
 * @internal
 */
export class TaskBuilder {
  constructor(
    private readonly state: ReplayState,
    private readonly nowMs: () => number,
  ) {}

  build(task: ScheduledTask): TaskNode {
    switch (task.type) {
      case 'activity':
        return typed(
          this.activity(task.name, task.input, task.sessionId ?? null, task.tag ?? null, parsed),
          task._typed,
        );
      case 'activityWithRetry': {
        const session = task.sessionId ?? null;
        return typed(
          new RetryNode({
            policy: task.retry,
            startAttempt: () => this.activity(task.name, task.input, session, null, parsed),
            startTimer: (delayMs) => this.timer(delayMs),
          }),
          task._typed,
        );
      }
      case 'timer':
        return this.timer(task.delayMs);
      case 'waitEvent':
        return typed(this.wait(task.name), task._typed);
      case 'dequeueEvent':
        return typed(this.dequeue(task.queueName), task._typed);
      case 'subOrchestration':
        return typed(this.subOrchestration(task.name, null, null, task.input), task._typed);
      case 'subOrchestrationWithId':
        return typed(
          this.subOrchestration(task.name, null, task.instanceId, task.input),
          task._typed,
        );
      case 'subOrchestrationVersioned':
        return typed(this.subOrchestration(task.name, task.version, null, task.input), task._typed);
      case 'subOrchestrationVersionedWithId':
        return typed(
          this.subOrchestration(task.name, task.version, task.instanceId, task.input),
          task._typed,
        );
      case 'orchestration':
        return this.detached(task.name, null, task.instanceId, task.input);
      case 'orchestrationVersioned':
        return this.detached(task.name, task.version, task.instanceId, task.input);
      case 'newGuid':
        return this.activity(SYSCALL_NEW_GUID, '', null, null, raw);
      case 'utcNow':
        return this.activity(SYSCALL_UTC_NOW_MS, '', null, null, epochMs);
      case 'getValueFromInstance':
        return this.activity(
          SYSCALL_GET_KV_VALUE,
          JSON.stringify({ instance_id: task.instanceId, key: task.key }),
          null,
          null,
          kvLookup,
        );
      case 'continueAsNew':
        this.state.emit({ type: 'ContinueAsNew', input: task.input, version: null });
        return new NeverNode();
      case 'continueAsNewVersioned':
        this.state.emit({ type: 'ContinueAsNew', input: task.input, version: task.version });
        return new NeverNode();
      case 'join': {
        const node = new JoinNode(task.tasks.map((child) => this.member(child)));
        return task._typed ? new MappedNode(node, reparseJoinEntries) : node;
      }
      case 'select': {
        const node = new SelectNode(task.tasks.map((child) => this.member(child)));
        return task._typed ? new MappedNode(node, reparseRaceValue) : node;
      }
    }
  }

  /**
   * A member of `all` or `race`. Continue-as-new there schedules nothing and fails at once, as
   * in duroxide-node: it would end the execution while a dequeue beside it took a message that
   * the orchestration never sees and the next execution is never given.
   */
  private member(task: ScheduledTask): TaskNode {
    return task.type === 'continueAsNew' || task.type === 'continueAsNewVersioned'
      ? new ReadyNode(failed(UNSUPPORTED_IN_COMPOSITION))
      : this.build(task);
  }

  private activity(
    name: string,
    input: string,
    sessionId: string | null,
    tag: string | null,
    decode: (text: string) => Outcome,
  ): TaskNode {
    const token = this.state.emit({
      type: 'CallActivity',
      schedulingEventId: 0,
      name,
      input,
      sessionId,
      tag,
    });
    return new DurableNode(this.state, token, 'activity', (t) => {
      const result = this.state.result(t);
      if (result?.kind !== 'activity') return undefined;
      return result.ok ? decode(result.value) : failed(result.value);
    });
  }

  private timer(delayMs: number): TaskNode {
    const fireAtMs = this.nowMs() + Math.max(0, Math.trunc(delayMs));
    const token = this.state.emit({ type: 'CreateTimer', schedulingEventId: 0, fireAtMs });
    return new DurableNode(this.state, token, 'timer', (t) =>
      this.state.result(t)?.kind === 'timer' ? ok(null) : undefined,
    );
  }

  private wait(name: string): TaskNode {
    const token = this.state.emit({ type: 'WaitExternal', schedulingEventId: 0, name });
    return new DurableNode(this.state, token, 'external', (t) => {
      const scheduleId = this.state.boundScheduleId(t);
      const data = scheduleId === undefined ? undefined : this.state.externalEvent(scheduleId);
      return data === undefined ? undefined : ok(parsePayload(data));
    });
  }

  private dequeue(name: string): TaskNode {
    const token = this.state.emit({ type: 'DequeueEvent', schedulingEventId: 0, name });
    return new DurableNode(this.state, token, 'queue', (t) => {
      const scheduleId = this.state.boundScheduleId(t);
      const data = scheduleId === undefined ? undefined : this.state.takeQueueMessage(scheduleId);
      return data === undefined ? undefined : ok(parsePayload(data));
    });
  }

  private subOrchestration(
    name: string,
    version: string | null,
    instance: string | null,
    input: string,
  ): TaskNode {
    if (instance?.startsWith(SUB_ORCH_AUTO_PREFIX)) {
      // duroxide refuses the reserved marker without scheduling anything, but still takes a
      // token so later tokens number as on the scheduling path.
      this.state.reserveToken();
      return new ReadyNode(
        failed(
          `sub-orchestration instance id '${instance}' starts with the reserved marker '${SUB_ORCH_AUTO_PREFIX}', which the runtime uses to mark auto-generated child ids; use an id that does not begin with it`,
        ),
      );
    }
    const token = this.state.emit({
      type: 'StartSubOrchestration',
      schedulingEventId: 0,
      name,
      version,
      instance: instance ?? SUB_ORCH_PENDING_PREFIX,
      input,
    });
    return new DurableNode(this.state, token, 'subOrchestration', (t) => {
      const result = this.state.result(t);
      if (result?.kind !== 'subOrchestration') return undefined;
      return result.ok ? ok(parsePayload(result.value)) : failed(result.value);
    });
  }

  private detached(
    name: string,
    version: string | null,
    instance: string,
    input: string,
  ): TaskNode {
    if (usesReservedRootMarker(instance)) {
      throw new OrchestrationPanic(
        `detached orchestration instance id '${instance}' uses the reserved sub-orchestration marker '${SUB_ORCH_AUTO_PREFIX}'; root instance ids must not start with it or contain '::sub::'`,
      );
    }
    this.state.emit({
      type: 'StartOrchestrationDetached',
      schedulingEventId: 0,
      name,
      version,
      instance,
      input,
    });
    return new ReadyNode(ok(null));
  }
}

function parsed(text: string): Outcome {
  return ok(parsePayload(text));
}

function raw(text: string): Outcome {
  return ok(text);
}

function epochMs(text: string): Outcome {
  return /^\d+$/.test(text) ? ok(Number(text)) : failed('invalid digit found in string');
}

function kvLookup(text: string): Outcome {
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value === 'string') return ok(value);
    return failed(
      `get_kv_value_from_instance deserialization error: invalid type: expected a string or null, got ${text}`,
    );
  } catch (error) {
    return failed(`get_kv_value_from_instance deserialization error: ${String(error)}`);
  }
}

/** Typed variants parse a string result once more, as duroxide-node's `*Typed` helpers do. */
function reparse(value: unknown): unknown {
  return typeof value === 'string' ? parsePayload(value) : value;
}

function typed(node: TaskNode, isTyped: boolean | undefined): TaskNode {
  return isTyped
    ? new MappedNode(node, (outcome) => (outcome.ok ? ok(reparse(outcome.value)) : outcome))
    : node;
}

function reparseJoinEntries(outcome: Outcome): Outcome {
  if (!outcome.ok || !Array.isArray(outcome.value)) return outcome;
  return ok(
    (outcome.value as Array<{ ok?: unknown; err?: string }>).map((entry) =>
      'ok' in entry ? { ok: reparse(entry.ok) } : entry,
    ),
  );
}

function reparseRaceValue(outcome: Outcome): Outcome {
  if (!outcome.ok) return outcome;
  const { index, value } = outcome.value as { index: number; value: unknown };
  return ok({ index, value: reparse(value) });
}
