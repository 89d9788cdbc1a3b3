import type { OrchestrationContext, ScheduledTask } from '@duro/core';
import {
  CLIENT_CALL_RETRY,
  DIGEST_EVENT,
  RAISE_DIGEST,
  type DigestInput,
  type RaiseDigestInput,
} from './activity-names.js';

/**
 * The sub-orchestration a session runs every few turns: it subscribes to an external event and,
 * in the same turn, schedules the activity that raises that event on it through the client, and
 * returns the event's data once both are done.
 */
export function* digestOrchestration(
  ctx: OrchestrationContext,
  input: DigestInput,
): Generator<ScheduledTask, unknown, unknown> {
  const raise: RaiseDigestInput = { instance: ctx.instanceId, turn: input.turn };
  const [ready] = yield* ctx.all([
    ctx.waitForEvent(DIGEST_EVENT),
    ctx.scheduleActivityWithRetry(RAISE_DIGEST, raise, CLIENT_CALL_RETRY),
  ]);
  return ready;
}
