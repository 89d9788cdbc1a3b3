import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();
const runtime = new Runtime(provider, { logLevel: 'warn' });

interface Message {
  readonly text: string;
}

// A chat session reads its queue in order until it receives 'bye'.
runtime.registerOrchestration('ChatSession', function* (ctx) {
  const transcript: string[] = [];
  for (;;) {
    const message = yield* ctx.dequeueEvent<Message>('inbox');
    transcript.push(message.text);
    if (message.text === 'bye') return transcript;
  }
});

await runtime.start();
const client = new Client(provider);
await client.startOrchestration('chat-1', 'ChatSession');

// Messages wait in the queue until the orchestration reads them, even when sent right away.
for (const text of ['hello', 'how are you?', 'bye']) {
  await client.enqueueEvent('chat-1', 'inbox', { text });
}

const status = await client.waitForOrchestration('chat-1');
console.log(status.output); // [ 'hello', 'how are you?', 'bye' ]

await runtime.shutdown();
assert.deepEqual(status.output, ['hello', 'how are you?', 'bye']);
