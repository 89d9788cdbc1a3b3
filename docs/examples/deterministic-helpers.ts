import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

runtime.registerOrchestration('CreateInvoice', function* (ctx, customer: string) {
  // Recorded the first time, replayed from history afterwards: the same on every replay.
  const invoiceId = yield* ctx.newGuid();
  const issuedAtMs = yield* ctx.utcNow();
  const dueAtMs = issuedAtMs + 30 * 24 * 3_600_000;
  ctx.traceInfo(`invoice ${invoiceId} for ${customer}`); // silent while replaying
  return { invoiceId, customer, issuedAt: new Date(issuedAtMs).toISOString(), dueAtMs };
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('invoice-1', 'CreateInvoice', 'ada');
const status = await client.waitForOrchestration('invoice-1');
const invoice = status.output as { invoiceId: string; issuedAt: string };
console.log(invoice.invoiceId, invoice.issuedAt); // a UUID v4 and an ISO time

await runtime.shutdown();
assert.match(
  invoice.invoiceId,
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
);
