import { errorDisplayMessage, type ErrorDetails } from '../model/error-details.js';
import type { WorkItem } from '../model/work-item.js';
import type { Provider } from '../provider/provider.js';
import type { SystemStats } from '../provider/system-stats.js';
import { encodePayload, parsePayload } from '../model/payload.js';
import { usesReservedRootMarker } from '../model/sub-orchestration-id.js';
import { ClientError, providerCall } from './client-error.js';
import { ManagementClient } from './management-client.js';
import { pollUntil, type PollSchedule } from './poll-until.js';

/** An instance's state as `getStatus` reports it (duroxide-node's `JsOrchestrationStatus`). */
export interface OrchestrationStatus {
  /** How the instance stands: `'NotFound'`, `'Running'`, `'Completed'` or `'Failed'`. */
  readonly status: 'NotFound' | 'Running' | 'Completed' | 'Failed';
  /** The output as JSON text, when Completed (parsed by `waitForOrchestration`). */
  readonly output?: string;
  /** The failure's display text, when Failed. */
  readonly error?: string;
  /** The structured failure, when Failed (not in duroxide-node). */
  readonly errorDetails?: ErrorDetails;
  /** The custom status the orchestration set, when it set one. */
  readonly customStatus?: string;
  /** Increments on every custom status change; 0 when never set. */
  readonly customStatusVersion: number;
}

/** A terminal status whose output has been parsed from JSON. */
export type ParsedOrchestrationStatus = Omit<OrchestrationStatus, 'output'> & {
  /** The output parsed from JSON, when Completed. */
  readonly output?: unknown;
};

const DEFAULT_TIMEOUT_MS = 30_000;
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

function validateRootId(instanceId: string): void {
  if (typeof instanceId !== 'string' || instanceId === '') {
    throw ClientError.invalidInput('instance id must be a non-empty string');
  }
  if (usesReservedRootMarker(instanceId)) {
    throw ClientError.invalidInput(
      `instance id '${instanceId}' uses the reserved sub-orchestration marker 'sub::'`,
    );
  }
}

/**
 * Starts, signals, cancels and observes orchestrations in a store, with duroxide-node's
 * `Client` surface. Inputs and event data are sent as JSON; every method rejects with a
 * {@link ClientError}.
 *
 * @example
 * ```ts
 * const client = new Client(provider);
 * await client.startOrchestration('order-1', 'Checkout', { sku: 7 });
 * const done = await client.waitForOrchestration('order-1', 10_000);
 * ```
 */
export class Client extends ManagementClient {
  constructor(provider: Provider) {
    super(provider);
  }

  // ----- Starting -----

  /** Starts an instance of the latest version of `name`. Starting an existing id is ignored. */
  async startOrchestration(instanceId: string, name: string, input?: unknown): Promise<void> {
    await this.start(instanceId, name, input, null);
  }

  /** Starts an instance of exactly `version` of `name`. */
  async startOrchestrationVersioned(
    instanceId: string,
    name: string,
    input: unknown,
    version: string,
  ): Promise<void> {
    await this.start(instanceId, name, input, version);
  }

  /** The same as `startOrchestration` (duroxide-node's typed alias). */
  startOrchestrationTyped(instanceId: string, name: string, input?: unknown): Promise<void> {
    return this.startOrchestration(instanceId, name, input);
  }

  /** The same as `startOrchestrationVersioned` (duroxide-node's typed alias). */
  startOrchestrationVersionedTyped(
    instanceId: string,
    name: string,
    input: unknown,
    version: string,
  ): Promise<void> {
    return this.startOrchestrationVersioned(instanceId, name, input, version);
  }

  private async start(
    instanceId: string,
    name: string,
    input: unknown,
    version: string | null,
  ): Promise<void> {
    validateRootId(instanceId);
    await this.enqueue({
      type: 'StartOrchestration',
      instance: instanceId,
      orchestration: name,
      input: this.encode(input),
      version,
      parentInstance: null,
      parentId: null,
      executionId: 1,
    });
  }

  // ----- Events and cancellation -----

  /** Raises a positional event; it reaches the next `waitForEvent(name)` scheduled before it. */
  async raiseEvent(instanceId: string, eventName: string, data?: unknown): Promise<void> {
    await this.enqueue({
      type: 'ExternalRaised',
      instance: instanceId,
      name: eventName,
      data: this.encode(data),
    });
  }

  /** Appends a message to a queue of a started instance (read by `dequeueEvent`, FIFO). */
  async enqueueEvent(instanceId: string, queueName: string, data?: unknown): Promise<void> {
    await this.enqueue({
      type: 'QueueMessage',
      instance: instanceId,
      name: queueName,
      data: this.encode(data),
    });
  }

  /** The same as `raiseEvent` (duroxide-node's typed alias). */
  raiseEventTyped(instanceId: string, eventName: string, data?: unknown): Promise<void> {
    return this.raiseEvent(instanceId, eventName, data);
  }

  /** The same as `enqueueEvent` (duroxide-node's typed alias). */
  enqueueEventTyped(instanceId: string, queueName: string, data?: unknown): Promise<void> {
    return this.enqueueEvent(instanceId, queueName, data);
  }

  /** Cancels an instance: it fails with `canceled: {reason}` and cancels its children. */
  async cancelInstance(instanceId: string, reason = ''): Promise<void> {
    await this.enqueue({ type: 'CancelInstance', instance: instanceId, reason });
  }

  // ----- Status -----

  /** The current execution's state with its custom status. */
  async getStatus(instanceId: string): Promise<OrchestrationStatus> {
    const history = await providerCall('read', () => this.provider.read(instanceId));
    let custom: { customStatus?: string; customStatusVersion: number } = { customStatusVersion: 0 };
    try {
      const current = await this.provider.getCustomStatus(instanceId, 0);
      if (current) {
        custom = {
          ...(current.customStatus !== null ? { customStatus: current.customStatus } : {}),
          customStatusVersion: current.version,
        };
      }
    } catch {
      // Best effort, as duroxide: a custom status read failure does not fail the status.
    }
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const kind = history[index]?.kind;
      if (kind?.type === 'OrchestrationCompleted')
        return { status: 'Completed', output: kind.output, ...custom };
      if (kind?.type === 'OrchestrationFailed') {
        return {
          status: 'Failed',
          error: errorDisplayMessage(kind.details),
          errorDetails: kind.details,
          ...custom,
        };
      }
    }
    const started = history.some((event) => event.kind.type === 'OrchestrationStarted');
    return started
      ? { status: 'Running', ...custom }
      : { status: 'NotFound', customStatusVersion: 0 };
  }

  /**
   * Waits until the instance completes or fails; the output is parsed from JSON. A read that
   * fails with a retryable provider error (a dropped connection) is retried until the deadline,
   * as in every `waitFor...` method.
   * @param timeoutMs @default 30000
   * @throws {ClientError} `Timeout` ("Operation timed out") when it does not end in time.
   */
  async waitForOrchestration(
    instanceId: string,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<ParsedOrchestrationStatus> {
    const status = await pollUntil(this.backoffUntil(timeoutMs), async () => {
      const current = await this.getStatus(instanceId);
      return current.status === 'Completed' || current.status === 'Failed' ? current : undefined;
    });
    return status.output === undefined
      ? status
      : { ...status, output: parsePayload(status.output) };
  }

  /**
   * The parsed output of a completed instance.
   * @throws {Error} with the failure text when the instance failed.
   * @throws {ClientError} `Timeout` when it does not end in time.
   */
  async waitForOrchestrationTyped<T = unknown>(
    instanceId: string,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<T> {
    const status = await this.waitForOrchestration(instanceId, timeoutMs);
    if (status.status === 'Failed') throw new Error(status.error ?? 'orchestration failed');
    return status.output as T;
  }

  /**
   * Waits until the custom status version exceeds `lastSeenVersion` or the instance ends.
   * @param pollMs @default 500
   * @param timeoutMs @default 30000
   * @throws {ClientError} `Timeout` when nothing changes in time.
   */
  async waitForStatusChange(
    instanceId: string,
    lastSeenVersion: number,
    pollMs = 500,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<OrchestrationStatus> {
    const schedule = {
      deadlineMs: Date.now() + timeoutMs,
      firstDelayMs: pollMs,
      maxDelayMs: pollMs,
    };
    return pollUntil(schedule, async () => {
      const changed = await providerCall('get_custom_status', () =>
        this.provider.getCustomStatus(instanceId, lastSeenVersion),
      );
      const status = await this.getStatus(instanceId);
      if (changed) return status;
      return status.status === 'Completed' || status.status === 'Failed' ? status : undefined;
    });
  }

  // ----- Key-value store -----

  /** A key of the instance's key-value store as it stands now, or `null`. */
  getValue(instanceId: string, key: string): Promise<string | null> {
    return providerCall('get_kv_value', () => this.provider.getKvValue(instanceId, key));
  }

  /**
   * Waits until the key has a value.
   * @throws {ClientError} `Timeout` when it has none in time.
   */
  async waitForValue(
    instanceId: string,
    key: string,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<string> {
    return pollUntil(this.backoffUntil(timeoutMs), async () => {
      return (await this.getValue(instanceId, key)) ?? undefined;
    });
  }

  /** Every key and value of the instance's key-value store. */
  async getKvAllValues(instanceId: string): Promise<Record<string, string>> {
    const values = await providerCall('get_kv_all_values', () =>
      this.provider.getKvAllValues(instanceId),
    );
    return Object.fromEntries([...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Size figures of the instance, or `null` when it does not exist. */
  getOrchestrationStats(instanceId: string): Promise<SystemStats | null> {
    return providerCall('get_instance_stats', () => this.provider.getInstanceStats(instanceId));
  }

  private backoffUntil(timeoutMs: number): PollSchedule {
    return {
      deadlineMs: Date.now() + timeoutMs,
      firstDelayMs: FIRST_POLL_MS,
      maxDelayMs: MAX_POLL_MS,
    };
  }

  private encode(value: unknown): string {
    try {
      return encodePayload(value);
    } catch (error) {
      throw ClientError.invalidInput(String(error instanceof Error ? error.message : error));
    }
  }

  private async enqueue(item: WorkItem): Promise<void> {
    await providerCall('enqueue_for_orchestrator', () =>
      this.provider.enqueueForOrchestrator(item, null),
    );
  }
}
