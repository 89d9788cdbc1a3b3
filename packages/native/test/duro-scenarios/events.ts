import type { OrchestrationContext, Runtime } from '@duro/core';

const NEVER_MS = 3_600_000;

/** External events and queues, the queue-race shapes included (`events.rs`). */
export function registerEventScenarios(runtime: Runtime): void {
  runtime.registerOrchestration('ExternalEvent', function* (ctx: OrchestrationContext) {
    ctx.setCustomStatus('waiting');
    const approval: string = yield* ctx.waitForEvent<string>('Approval');
    return `approved: ${approval}`;
  });
  runtime.registerOrchestration('ExternalEventsInOrder', function* (ctx: OrchestrationContext) {
    ctx.setCustomStatus('waiting');
    const first: string = yield* ctx.waitForEvent<string>('Step');
    ctx.setCustomStatus('waiting-2');
    const second: string = yield* ctx.waitForEvent<string>('Step');
    return `${first},${second}`;
  });
  runtime.registerOrchestration('QueueDequeue', function* (ctx: OrchestrationContext) {
    ctx.setCustomStatus('waiting');
    yield* ctx.waitForEvent('Go');
    const first: string = yield* ctx.dequeueEvent<string>('inbox');
    const second: string = yield* ctx.dequeueEvent<string>('inbox');
    return `${first},${second}`;
  });
  runtime.registerOrchestration('QueueRaceMessageWins', function* (ctx: OrchestrationContext) {
    ctx.setCustomStatus('waiting');
    const winner: { index: number; value: unknown } = yield* ctx.race(
      ctx.dequeueEvent<string>('inbox'),
      ctx.scheduleTimer(NEVER_MS),
    );
    return winner.index === 0 ? `message: ${String(winner.value)}` : 'timeout';
  });
  runtime.registerOrchestration(
    'QueueRaceTimeoutThenMessage',
    function* (ctx: OrchestrationContext) {
      const winner: { index: number; value: unknown } = yield* ctx.race(
        ctx.dequeueEvent<string>('inbox'),
        ctx.scheduleTimer(50),
      );
      const first = winner.index === 0 ? `message ${String(winner.value)}` : 'timeout';
      ctx.setCustomStatus('waiting');
      const late: string = yield* ctx.dequeueEvent<string>('inbox');
      return `${first}, then ${late}`;
    },
  );
}
