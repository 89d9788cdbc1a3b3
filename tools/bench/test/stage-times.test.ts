import { InMemoryProvider, Runtime, Client } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { StageTimes } from '../src/stage-times.js';

describe('StageTimes', () => {
  it('adds up the steps of the given instances, per instance, the costliest first', () => {
    const stages = new StageTimes();
    for (const [instance, offset] of [
      ['a', 0],
      ['b', 100],
    ] as const) {
      stages.mark(instance, 'start sent', offset);
      stages.mark(instance, 'start committed', offset + 2);
      stages.mark(instance, 'turn fetched', offset + 5);
      stages.mark(instance, 'turn commit sent', offset + 6);
      stages.mark(instance, 'turn committed', offset + 10);
    }
    stages.mark('warm-up', 'start sent', 0);
    stages.mark('warm-up', 'start committed', 50);

    expect(stages.steps(['a', 'b'])).toEqual([
      { from: 'turn commit sent', to: 'turn committed', msPerInstance: 4, timesPerInstance: 1 },
      { from: 'start committed', to: 'turn fetched', msPerInstance: 3, timesPerInstance: 1 },
      { from: 'start sent', to: 'start committed', msPerInstance: 2, timesPerInstance: 1 },
      { from: 'turn fetched', to: 'turn commit sent', msPerInstance: 1, timesPerInstance: 1 },
    ]);
  });

  it("times every stage of an instance's start, turns and activities through a runtime", async () => {
    const stages = new StageTimes();
    const provider = stages.watch(new InMemoryProvider());
    const runtime = new Runtime(provider, { logLevel: 'silent' });
    runtime.registerActivity('Greet', (_context, name: string) => Promise.resolve(`hi ${name}`));
    runtime.registerOrchestration('Hello', function* (context, name: string) {
      return yield* context.scheduleActivity<string>('Greet', name);
    });
    await runtime.start();
    try {
      const client = new Client(provider);
      await client.startOrchestration('hello-1', 'Hello', 'duro');
      await client.waitForOrchestration('hello-1', 10_000);
    } finally {
      await runtime.shutdown();
    }

    const steps = stages.steps(['hello-1']);
    const taken = new Map(
      steps.map((step) => [`${step.from} → ${step.to}`, step.timesPerInstance]),
    );
    expect(taken.get('turn commit sent → turn committed')).toBe(2);
    expect(taken.get('turn committed → activities fetched')).toBe(1);
    expect(taken.get('activities fetched → completions sent')).toBe(1);
    expect(taken.get('completions sent → completions committed')).toBe(1);
    expect(taken.get('completions committed → turn fetched')).toBe(1);
    const stagesSeen = new Set(steps.flatMap((step) => [step.from, step.to]));
    expect(stagesSeen).toEqual(
      new Set([
        'start sent',
        'start committed',
        'turn fetched',
        'turn commit sent',
        'turn committed',
        'activities fetched',
        'completions sent',
        'completions committed',
      ]),
    );
  });
});
