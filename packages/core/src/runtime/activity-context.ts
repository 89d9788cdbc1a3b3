import { Client } from '../client/client.js';
import type { Provider } from '../provider/provider.js';
import type { Logger } from './logger.js';

/** What an activity knows about the call it serves. */
export interface ActivityInfo {
  /** The instance that scheduled the activity. */
  readonly instanceId: string;
  /** The execution that scheduled it. */
  readonly executionId: number;
  /** The orchestration that scheduled it. */
  readonly orchestrationName: string;
  /** That orchestration's version. */
  readonly orchestrationVersion: string;
  /** The activity name it was scheduled under. */
  readonly activityName: string;
  /** The `ActivityScheduled` event id: stable across redeliveries of this call. */
  readonly activityId: number;
  /** The id of the worker running it (runtime id and slot). */
  readonly workerId: string;
  /** The session the activity was scheduled on, or `null`. */
  readonly sessionId: string | null;
  /** How many times this call has been delivered, counting this one. */
  readonly attempt: number;
}

/**
 * What an activity body receives, with duroxide-node's surface plus `signal`: an
 * `AbortSignal` that fires when the activity is cancelled (its orchestration ended or was
 * cancelled, it lost a race, or its lock could not be renewed). After cancellation the result
 * is discarded; the activity has `activityCancellationGracePeriodMs` to stop.
 */
export class ActivityContext implements ActivityInfo {
  /** The instance that scheduled the activity. */
  readonly instanceId!: string;
  /** The execution that scheduled it. */
  readonly executionId!: number;
  /** The orchestration that scheduled it. */
  readonly orchestrationName!: string;
  /** That orchestration's version. */
  readonly orchestrationVersion!: string;
  /** The activity name it was scheduled under. */
  readonly activityName!: string;
  readonly activityId!: number;
  /** The id of the worker running it (runtime id and slot). */
  readonly workerId!: string;
  readonly sessionId!: string | null;
  readonly attempt!: number;

  /** @internal */
  constructor(
    info: ActivityInfo,
    private readonly routingTag: string | null,
    private readonly controller: AbortController,
    private readonly provider: Provider,
    private readonly logger: Logger,
  ) {
    Object.assign(this, info);
  }

  /** Fires when the activity is cancelled. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the activity was cancelled (cooperative check). */
  isCancelled(): boolean {
    return this.controller.signal.aborted;
  }

  /** The routing tag the activity was scheduled with, or `null`. */
  tag(): string | null {
    return this.routingTag;
  }

  /** A client on the same store, for starting or signalling other orchestrations. */
  getClient(): Client {
    return new Client(this.provider);
  }

  /** Logs at info level with the activity's instance, name, id and worker. */
  traceInfo(message: string): void {
    this.logger.info(this.fields(), message);
  }

  /** Logs at warn level with the activity's instance, name, id and worker. */
  traceWarn(message: string): void {
    this.logger.warn(this.fields(), message);
  }

  /** Logs at error level with the activity's instance, name, id and worker. */
  traceError(message: string): void {
    this.logger.error(this.fields(), message);
  }

  /** Logs at debug level with the activity's instance, name, id and worker. */
  traceDebug(message: string): void {
    this.logger.debug(this.fields(), message);
  }

  private fields(): Record<string, unknown> {
    const { instanceId, executionId, activityName, activityId, workerId } = this;
    return {
      target: 'duroxide::activity',
      instanceId,
      executionId,
      activityName,
      activityId,
      workerId,
    };
  }
}
