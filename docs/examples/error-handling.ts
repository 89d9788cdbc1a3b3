import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

runtime.registerActivity('BookFlight', async (_ctx, trip: string) => `flight for ${trip}`);
runtime.registerActivity('BookHotel', async (_ctx, trip: string) => {
  throw new Error(`no rooms for ${trip}`);
});
runtime.registerActivity('CancelFlight', async (_ctx, booking: string) => `cancelled ${booking}`);

runtime.registerOrchestration('BookTrip', function* (ctx, trip: string) {
  const flight = yield* ctx.scheduleActivity<string>('BookFlight', trip);
  try {
    const hotel = yield* ctx.scheduleActivity<string>('BookHotel', trip);
    return { flight, hotel };
  } catch (error) {
    // A failed activity throws an Error carrying its message into the orchestration.
    const undo = yield* ctx.scheduleActivity<string>('CancelFlight', flight);
    throw new Error(`trip not booked: ${(error as Error).message} (${undo})`, { cause: error });
  }
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('trip-1', 'BookTrip', 'lisbon');
const status = await client.waitForOrchestration('trip-1');
console.log(status.status); // Failed
console.log(status.error); // trip not booked: no rooms for lisbon (cancelled flight for lisbon)
console.log(status.errorDetails?.type); // Application

await runtime.shutdown();
assert.equal(status.error, 'trip not booked: no rooms for lisbon (cancelled flight for lisbon)');
