import type { OrchestrationContext, Runtime } from '@duro/core';

/** Sub-orchestrations and detached starts (`sub_orchestrations.rs`). */
export function registerSubOrchestrationScenarios(runtime: Runtime): void {
  runtime.registerOrchestration('Greeter', function* (ctx: OrchestrationContext, name: string) {
    return yield* ctx.scheduleActivity<string>('Greet', name);
  });
  runtime.registerOrchestration(
    'ParentOfGreeter',
    function* (ctx: OrchestrationContext, name: string) {
      const said: string = yield* ctx.scheduleSubOrchestration('Greeter', name);
      return `child said: ${said}`;
    },
  );
  // eslint-disable-next-line require-yield -- the scenario needs no durable step
  runtime.registerOrchestration('FailingChild', function* () {
    throw new Error('child broke');
  });
  runtime.registerOrchestration(
    'ParentOfFailingChild',
    function* (ctx: OrchestrationContext, input: unknown) {
      try {
        return yield* ctx.scheduleSubOrchestration('FailingChild', input);
      } catch (error) {
        return `caught: ${(error as Error).message}`;
      }
    },
  );
  runtime.registerOrchestration(
    'ParentWithChildId',
    function* (ctx: OrchestrationContext, name: string) {
      const said: string = yield* ctx.scheduleSubOrchestrationWithId(
        'Greeter',
        `${ctx.instanceId}::child`,
        name,
      );
      return `child said: ${said}`;
    },
  );
  runtime.registerOrchestration(
    'DetachedStarter',
    function* (ctx: OrchestrationContext, name: string) {
      yield* ctx.startOrchestration('Greeter', `${ctx.instanceId}::detached`, name);
      return 'started';
    },
  );
}
