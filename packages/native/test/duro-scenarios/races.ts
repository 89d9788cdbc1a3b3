import type { OrchestrationContext, Runtime } from '@duro/core';

/** Long enough never to fire while a scenario runs. */
const NEVER_MS = 3_600_000;

/** Timers, and races between timers, events and activities (`races.rs`). */
export function registerRaceScenarios(runtime: Runtime): void {
  runtime.registerOrchestration(
    'TimerThenActivity',
    function* (ctx: OrchestrationContext, name: string) {
      yield* ctx.scheduleTimer(50);
      const greeting: string = yield* ctx.scheduleActivity<string>('Greet', name);
      return `after timer: ${greeting}`;
    },
  );
  runtime.registerOrchestration(
    'RaceActivityTimer',
    function* (ctx: OrchestrationContext, name: string) {
      const winner: { index: number; value: unknown } = yield* ctx.race(
        ctx.scheduleActivity<string>('Greet', name),
        ctx.scheduleTimer(NEVER_MS),
      );
      return winner.index === 0 ? `activity: ${String(winner.value)}` : 'timeout';
    },
  );
  runtime.registerOrchestration('RaceTimerEvent', function* (ctx: OrchestrationContext) {
    const winner: { index: number; value: unknown } = yield* ctx.race(
      ctx.scheduleTimer(50),
      ctx.waitForEvent<string>('Never'),
    );
    return winner.index === 0 ? 'timeout' : `event: ${String(winner.value)}`;
  });
  runtime.registerOrchestration(
    'RaceThreeWay',
    function* (ctx: OrchestrationContext, name: string) {
      const winner: { index: number; value: unknown } = yield* ctx.race(
        ctx.scheduleTimer(NEVER_MS),
        ctx.waitForEvent<string>('Never'),
        ctx.scheduleActivity<string>('Greet', name),
      );
      if (winner.index === 0) return 'timeout';
      return winner.index === 1
        ? `event: ${String(winner.value)}`
        : `activity: ${String(winner.value)}`;
    },
  );
}
