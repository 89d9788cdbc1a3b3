import { Client, InMemoryProvider, Runtime } from '@duro/core';
import { afterEach, expect, it } from 'vitest';

// The code under test: in an application this would be imported from its module.
function registerReminder(runtime: Runtime): void {
  runtime.registerActivity('Notify', async (_ctx, user: string) => `notified ${user}`);
  runtime.registerOrchestration('Reminder', function* (ctx, user: string) {
    yield* ctx.scheduleTimer(24 * 3_600_000); // one day
    return yield* ctx.scheduleActivity<string>('Notify', user);
  });
}

let stop: () => Promise<void> = async () => undefined;
afterEach(() => stop());

it('reminds the user after a day, without waiting a day', async () => {
  // A clock the test moves: a timer fires once the store's time passes its due time, which the
  // runtime computes from the real clock when the timer is scheduled.
  let nowMs = Date.now();
  const provider = new InMemoryProvider({ nowMs: () => nowMs });
  const runtime = new Runtime(provider, { logLevel: 'silent' });
  registerReminder(runtime);
  await runtime.start();
  stop = () => runtime.shutdown();

  const client = new Client(provider);
  await client.startOrchestration('reminder-1', 'Reminder', 'ada');
  await expect.poll(async () => (await client.getStatus('reminder-1')).status).toBe('Running');

  nowMs += 25 * 3_600_000;
  provider.notifyClockAdvanced();

  expect(await client.waitForOrchestrationTyped<string>('reminder-1')).toBe('notified ada');
});
