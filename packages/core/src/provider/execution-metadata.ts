import type { SemverVersion } from '../model/semver.js';

/** Terminal and running states of an execution, as stored. */
export type ExecutionStatus = 'Running' | 'Completed' | 'Failed' | 'ContinuedAsNew';

/**
 * What the runtime computed about a turn, for the provider to store as is. Providers do not look
 * into events to derive any of this (custom status and key-value events excepted).
 */
export interface ExecutionMetadata {
  /** New status of the execution; absent while it keeps running. */
  readonly status?: ExecutionStatus;
  /** Output for `Completed`, error text for `Failed`, next input for `ContinuedAsNew`. */
  readonly output?: string;
  /** Set on the first turn; creates the instance row together with the version. */
  readonly orchestrationName?: string;
  /** The orchestration version the execution runs. */
  readonly orchestrationVersion?: string;
  /** The parent of a sub-orchestration, stored once and never changed. */
  readonly parentInstanceId?: string;
  /** Runtime version the execution is pinned to, for capability filtering. */
  readonly pinnedDuroxideVersion?: SemverVersion;
}
