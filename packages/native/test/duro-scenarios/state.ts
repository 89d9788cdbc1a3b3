import type { OrchestrationContext, Runtime } from '@duro/core';

/** Instances whose `ChangesItsMind` has run once: the replay then asks for another activity. */
const seenByChangesItsMind = new Set<string>();

/** Key-value state, custom status, GUID and clock, and the failures (`state.rs`, `failures.rs`). */
export function registerStateAndFailureScenarios(runtime: Runtime): void {
  // eslint-disable-next-line require-yield -- the scenario needs no durable step
  runtime.registerOrchestration('KeyValueState', function* (ctx: OrchestrationContext) {
    ctx.setValue('a', '1');
    ctx.setValue('b', '2');
    ctx.clearValue('a');
    return ctx.getKvAllValues();
  });
  runtime.registerOrchestration(
    'ValueSetter',
    // eslint-disable-next-line require-yield -- the scenario needs no durable step
    function* (ctx: OrchestrationContext, color: string) {
      ctx.setValue('color', color);
      return 'set';
    },
  );
  runtime.registerOrchestration(
    'ReadChildValue',
    function* (ctx: OrchestrationContext, color: string) {
      const child = `${ctx.instanceId}::child`;
      yield* ctx.scheduleSubOrchestrationWithId('ValueSetter', child, color);
      const value: string | null = yield* ctx.getValueFromInstance(child, 'color');
      return value ?? 'missing';
    },
  );
  runtime.registerOrchestration(
    'CustomStatusSteps',
    function* (ctx: OrchestrationContext, name: string) {
      ctx.setCustomStatus('step-1');
      yield* ctx.scheduleActivity<string>('Greet', name);
      ctx.setCustomStatus('step-2');
      return ctx.getCustomStatus() ?? '';
    },
  );
  runtime.registerOrchestration('GuidAndTime', function* (ctx: OrchestrationContext) {
    const guid: string = yield* ctx.newGuid();
    const now: number = yield* ctx.utcNow();
    return `${guid} ${now}`;
  });
  runtime.registerOrchestration('WaitForever', function* (ctx: OrchestrationContext) {
    ctx.setCustomStatus('waiting');
    const data: string = yield* ctx.waitForEvent<string>('Never');
    return `event: ${data}`;
  });
  runtime.registerOrchestration(
    'ParentOfWaiter',
    function* (ctx: OrchestrationContext, input: unknown) {
      ctx.setCustomStatus('waiting');
      return yield* ctx.scheduleSubOrchestrationWithId(
        'WaitForever',
        `${ctx.instanceId}::child`,
        input,
      );
    },
  );
  // eslint-disable-next-line require-yield -- the scenario needs no durable step
  runtime.registerOrchestration('FailOrchestration', function* () {
    throw new Error('boom');
  });
  runtime.registerOrchestration(
    'ChangesItsMind',
    function* (ctx: OrchestrationContext, name: string) {
      const firstRun = !seenByChangesItsMind.has(ctx.instanceId);
      seenByChangesItsMind.add(ctx.instanceId);
      return yield* ctx.scheduleActivity(firstRun ? 'Greet' : 'Shout', name);
    },
  );
}
