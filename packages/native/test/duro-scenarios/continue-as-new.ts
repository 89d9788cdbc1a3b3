import type { OrchestrationContext, Runtime } from '@duro/core';

/** Continue-as-new and versioning (`continue_as_new.rs`, `versioning.rs`). */
export function registerContinueAsNewScenarios(runtime: Runtime): void {
  runtime.registerOrchestration(
    'CountToThree',
    function* (ctx: OrchestrationContext, count: number) {
      if (count >= 3) return count;
      return yield* ctx.continueAsNew(count + 1);
    },
  );
  runtime.registerOrchestration(
    'QueueAcrossContinueAsNew',
    function* (ctx: OrchestrationContext, received: string) {
      if (received === '') {
        ctx.setCustomStatus('waiting');
        yield* ctx.waitForEvent('Go');
      }
      const message: string = yield* ctx.dequeueEvent<string>('inbox');
      const all = received === '' ? message : `${received},${message}`;
      if (all.split(',').length >= 3) return all;
      return yield* ctx.continueAsNew(all);
    },
  );
  runtime.registerOrchestrationVersioned(
    'Versioned',
    '1.0.0',
    function* (ctx: OrchestrationContext, input: string) {
      if (input === 'upgrade') return yield* ctx.continueAsNewVersioned('from v1', '2.0.0');
      return `v1:${input}`;
    },
  );
  // eslint-disable-next-line require-yield -- the scenario needs no durable step
  runtime.registerOrchestrationVersioned('Versioned', '2.0.0', function* (_ctx, input: string) {
    return `v2:${input}`;
  });
}
