/**
 * Structured failure information, as duroxide's `ErrorDetails`. On the wire each variant is
 * externally tagged (`{"Application":{...}}`); here the variant is the `type` field.
 */
export type ErrorDetails =
  /** A provider or runtime infrastructure failure (database, connection, serialization). */
  | {
      /** The variant: a store or runtime failure. */
      readonly type: 'Infrastructure';
      /** The operation that failed, such as `fetch_orchestration_item`. */
      readonly operation: string;
      /** What failed. */
      readonly message: string;
      /** Whether trying again can succeed. */
      readonly retryable: boolean;
    }
  /** A configuration error; today only nondeterminism. Never retryable. */
  | {
      /** The variant: the code does not fit the history. */
      readonly type: 'Configuration';
      /** Which configuration error. */
      readonly kind: ConfigErrorKind;
      /** The resource concerned (empty for nondeterminism). */
      readonly resource: string;
      /** What did not match, when known. */
      readonly message: string | null;
    }
  /** A failure raised by user code: an activity or orchestration error, a panic, a cancellation. */
  | {
      /** The variant: user code failed or was cancelled. */
      readonly type: 'Application';
      /** Which application error. */
      readonly kind: AppErrorKind;
      /** The error message. */
      readonly message: string;
      /** Whether trying again can succeed. */
      readonly retryable: boolean;
    }
  /** A message that exceeded its maximum delivery attempts. Never retryable. */
  | {
      /** The variant: a message exceeded its delivery attempts. */
      readonly type: 'Poison';
      /** Deliveries so far, this one included. */
      readonly attemptCount: number;
      /** The runtime's `maxAttempts`. */
      readonly maxAttempts: number;
      /** Which message was poisoned. */
      readonly messageType: PoisonMessageType;
      /** Why the message was poisoned. */
      readonly message: string;
    };

/** The kind of a `Configuration` error. */
export type ConfigErrorKind = {
  /** The replayed code made a different decision than the history holds. */
  readonly type: 'Nondeterminism';
};

/** The kind of an `Application` error. */
export type AppErrorKind =
  | {
      /** An activity threw or rejected. */
      readonly type: 'ActivityFailed';
    }
  | {
      /** Orchestration code threw. */
      readonly type: 'OrchestrationFailed';
    }
  | {
      /** User code crashed (Rust duroxide's panic). */
      readonly type: 'Panicked';
    }
  | {
      /** The instance was cancelled. */
      readonly type: 'Cancelled';
      /** The reason given to `cancelInstance`. */
      readonly reason: string;
    };

/** What kind of message was poisoned. */
export type PoisonMessageType =
  | {
      /** An orchestration turn's messages. */
      readonly type: 'Orchestration';
      /** The instance the message was for. */
      readonly instance: string;
      /** The execution the message was for. */
      readonly executionId: number;
    }
  | {
      /** An activity's message. */
      readonly type: 'Activity';
      /** The instance the message was for. */
      readonly instance: string;
      /** The execution the message was for. */
      readonly executionId: number;
      /** The activity name. */
      readonly activityName: string;
      /** The event id of the activity's `ActivityScheduled`. */
      readonly activityId: number;
    }
  | {
      /** A message or history the runtime could not decode. */
      readonly type: 'FailedDeserialization';
      /** The instance the message was for. */
      readonly instance: string;
      /** The execution the message was for. */
      readonly executionId: number;
      /** What could not be decoded, and why. */
      readonly error: string;
    };

/** The error category, as duroxide's `ErrorDetails::category`. */
export function errorCategory(
  details: ErrorDetails,
): 'infrastructure' | 'configuration' | 'application' | 'poison' {
  switch (details.type) {
    case 'Infrastructure':
      return 'infrastructure';
    case 'Configuration':
      return 'configuration';
    case 'Application':
      return 'application';
    case 'Poison':
      return 'poison';
  }
}

/** Whether a retry could succeed: configuration and poison errors never can. */
export function isRetryableError(details: ErrorDetails): boolean {
  switch (details.type) {
    case 'Infrastructure':
    case 'Application':
      return details.retryable;
    case 'Configuration':
    case 'Poison':
      return false;
  }
}

/**
 * The human-readable text duroxide derives from an error (`display_message`): the execution output
 * of a failed orchestration, and the error text an orchestration sees for a failed activity or
 * child. The wording is part of the contract; do not rephrase it.
 */
export function errorDisplayMessage(details: ErrorDetails): string {
  switch (details.type) {
    case 'Infrastructure':
      return `infrastructure:${details.operation}: ${details.message}`;
    case 'Configuration':
      return details.message !== null
        ? `nondeterministic: ${details.message}`
        : `nondeterministic in ${details.resource}`;
    case 'Application':
      return applicationMessage(details.kind, details.message);
    case 'Poison':
      return poisonMessage(details.messageType, details.attemptCount, details.maxAttempts);
  }
}

function applicationMessage(kind: AppErrorKind, message: string): string {
  switch (kind.type) {
    case 'Cancelled':
      return `canceled: ${kind.reason}`;
    case 'Panicked':
      return `orchestration panicked: ${message}`;
    case 'ActivityFailed':
    case 'OrchestrationFailed':
      return message;
  }
}

function poisonMessage(target: PoisonMessageType, attempts: number, max: number): string {
  switch (target.type) {
    case 'Orchestration':
      return `poison: orchestration ${target.instance} exceeded ${attempts} attempts (max ${max})`;
    case 'Activity':
      return `poison: activity ${target.activityName}#${target.activityId} exceeded ${attempts} attempts (max ${max})`;
    case 'FailedDeserialization':
      return `poison: orchestration ${target.instance} history deserialization failed after ${attempts} attempts (max ${max}): ${target.error}`;
  }
}
