import type { ErrorDetails } from '../../model/error-details.js';

/**
 * How a turn ended, as duroxide's `TurnResult`.
 * @internal
 */
export type TurnResult =
  /** The orchestration waits for more work. */
  | { readonly type: 'Continue' }
  | { readonly type: 'Completed'; readonly output: string }
  | { readonly type: 'Failed'; readonly details: ErrorDetails }
  | {
      readonly type: 'ContinueAsNew';
      readonly input: string;
      readonly version: string | null;
      /**
       * Queue messages no dequeue read, for executions replayed with the 0.1.31 rules; `null`
       * for older ones, whose carry-forward is computed from history instead.
       */
      readonly unconsumedQueueArrivals: Array<[string, string]> | null;
    }
  | { readonly type: 'Cancelled'; readonly reason: string };
