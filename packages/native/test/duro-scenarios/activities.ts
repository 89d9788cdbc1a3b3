import type { ActivityContext, OrchestrationContext, Runtime } from '@duro/core';

/** Attempts `FlakyTwice` has seen, per instance: it fails until its third attempt. */
const flakyAttempts = new Map<string, number>();

/** The activities every scenario uses (`activities.rs` on the Rust side). */
export function registerActivities(runtime: Runtime): void {
  runtime.registerActivity(
    'Greet',
    async (_ctx: ActivityContext, name: string) => `Hello, ${name}!`,
  );
  runtime.registerActivity('Shout', async (_ctx: ActivityContext, text: string) =>
    text.toUpperCase(),
  );
  runtime.registerActivity('Double', async (_ctx: ActivityContext, n: number) => 2 * n);
  runtime.registerActivity('ChargeCard', async () => {
    throw new Error('card declined');
  });
  runtime.registerActivity('FlakyTwice', async (ctx: ActivityContext) => {
    const attempt = (flakyAttempts.get(ctx.instanceId) ?? 0) + 1;
    flakyAttempts.set(ctx.instanceId, attempt);
    if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
    return `ok after ${attempt} attempts`;
  });
  runtime.registerActivity('SessionOf', async (ctx: ActivityContext) => ctx.sessionId ?? 'none');
  runtime.registerActivity('TagOf', async (ctx: ActivityContext) => ctx.tag() ?? 'none');
}

/** Chains, fan-out, failures, retries, sessions and tags. */
export function registerActivityScenarios(runtime: Runtime): void {
  runtime.registerOrchestration(
    'ActivityChain',
    function* (ctx: OrchestrationContext, name: string) {
      const greeting: string = yield* ctx.scheduleActivity<string>('Greet', name);
      return yield* ctx.scheduleActivity<string>('Shout', greeting);
    },
  );
  runtime.registerOrchestration(
    'ActivityFanOut',
    function* (ctx: OrchestrationContext, numbers: number[]) {
      const results: Array<{ ok?: number; err?: string }> = yield* ctx.all(
        numbers.map((n) => ctx.scheduleActivity<number>('Double', n)),
      );
      let sum = 0;
      for (const result of results) {
        if (result.err !== undefined) throw new Error(result.err);
        sum += result.ok ?? 0;
      }
      return sum;
    },
  );
  runtime.registerOrchestration(
    'ActivityFailureCaught',
    function* (ctx: OrchestrationContext, card: string) {
      try {
        return yield* ctx.scheduleActivity('ChargeCard', card);
      } catch (error) {
        return `compensated: ${(error as Error).message}`;
      }
    },
  );
  runtime.registerOrchestration(
    'ActivityRetry',
    function* (ctx: OrchestrationContext, job: string) {
      return yield* ctx.scheduleActivityWithRetry('FlakyTwice', job, {
        maxAttempts: 3,
        backoff: 'fixed',
      });
    },
  );
  runtime.registerOrchestration(
    'SessionActivities',
    function* (ctx: OrchestrationContext, session: string) {
      const first: string = yield* ctx.scheduleActivityOnSession('SessionOf', null, session);
      const second: string = yield* ctx.scheduleActivityOnSession('SessionOf', null, session);
      return `${first},${second}`;
    },
  );
  runtime.registerOrchestration(
    'TaggedActivity',
    function* (ctx: OrchestrationContext, tag: string) {
      return yield* ctx.scheduleActivity('TagOf', null).withTag(tag);
    },
  );
}
