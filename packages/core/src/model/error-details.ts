/**
 * Structured failure information, as duroxide's `ErrorDetails`. On the wire each variant is
 * externally tagged (`{"Application":{...}}`); here the variant is the `type` field.
 */
export type ErrorDetails =
  /** A provider or runtime infrastructure failure (database, connection, serialization). */
  | {
      readonly type: 'Infrastructure';
      readonly operation: string;
      readonly message: string;
      readonly retryable: boolean;
    }
  /** A configuration error; today only nondeterminism. Never retryable. */
  | {
      readonly type: 'Configuration';
      readonly kind: ConfigErrorKind;
      readonly resource: string;
      readonly message: string | null;
    }
  /** A failure raised by user code: an activity or orchestration error, a panic, a cancellation. */
  | {
      readonly type: 'Application';
      readonly kind: AppErrorKind;
      readonly message: string;
      readonly retryable: boolean;
    }
  /** A message that exceeded its maximum delivery attempts. Never retryable. */
  | {
      readonly type: 'Poison';
      readonly attemptCount: number;
      readonly maxAttempts: number;
      readonly messageType: PoisonMessageType;
      readonly message: string;
    };

/** The kind of a `Configuration` error. */
export type ConfigErrorKind = { readonly type: 'Nondeterminism' };

/** The kind of an `Application` error. */
export type AppErrorKind =
  | { readonly type: 'ActivityFailed' }
  | { readonly type: 'OrchestrationFailed' }
  | { readonly type: 'Panicked' }
  | { readonly type: 'Cancelled'; readonly reason: string };

/** What kind of message was poisoned. */
export type PoisonMessageType =
  | { readonly type: 'Orchestration'; readonly instance: string; readonly executionId: number }
  | {
      readonly type: 'Activity';
      readonly instance: string;
      readonly executionId: number;
      readonly activityName: string;
      readonly activityId: number;
    }
  | {
      readonly type: 'FailedDeserialization';
      readonly instance: string;
      readonly executionId: number;
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
