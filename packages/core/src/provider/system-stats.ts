/** Size figures of one instance, as duroxide's `SystemStats`. */
export interface SystemStats {
  /** Events in the current execution's history. */
  readonly historyEventCount: number;
  /** Approximate stored size of that history, in bytes. */
  readonly historySizeBytes: number;
  /** Unread queue messages carried forward into the current execution. */
  readonly queuePendingCount: number;
  /** Keys in the instance's key-value store. */
  readonly kvUserKeyCount: number;
  /** Total size of its key-value values, in bytes. */
  readonly kvTotalValueBytes: number;
}
