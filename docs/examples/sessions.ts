import assert from 'node:assert/strict';
import { Client, InMemoryProvider, Runtime } from '@duro/core';

const provider = new InMemoryProvider();

// Two worker runtimes, as two processes would be. A session's activities all run in the
// runtime that owns the session, so that runtime can keep state in memory between them.
const loadedModels = new Map<string, Set<string>>(); // per runtime: what it has in memory
function startWorker(workerNodeId: string) {
  const runtime = new Runtime(provider, {
    logLevel: 'warn',
    workerNodeId,
    orchestrationConcurrency: 1,
  });
  runtime.registerActivity('Infer', async (ctx, prompt: string) => {
    const models = loadedModels.get(workerNodeId) ?? new Set<string>();
    loadedModels.set(workerNodeId, models);
    const warm = models.has(ctx.sessionId ?? '');
    models.add(ctx.sessionId ?? '');
    return { prompt, worker: workerNodeId, warm };
  });
  runtime.registerOrchestration('Conversation', function* (ctx, prompts: string[]) {
    const sessionId = `conversation-${ctx.instanceId}`;
    const answers: { worker: string; warm: boolean }[] = [];
    for (const prompt of prompts) {
      answers.push(yield* ctx.scheduleActivityOnSession('Infer', prompt, sessionId));
    }
    return answers;
  });
  return runtime;
}

const workers = [startWorker('worker-a'), startWorker('worker-b')];
for (const worker of workers) await worker.start();

const client = new Client(provider);
await client.startOrchestration('chat-1', 'Conversation', ['hi', 'tell me more', 'thanks']);
const status = await client.waitForOrchestration('chat-1');
const answers = status.output as { worker: string; warm: boolean }[];
console.log(answers.map((a) => `${a.worker} warm=${a.warm}`));
// one worker for all three: [ 'worker-b warm=false', 'worker-b warm=true', 'worker-b warm=true' ]

for (const worker of workers) await worker.shutdown();
assert.equal(new Set(answers.map((a) => a.worker)).size, 1);
assert.deepEqual(
  answers.map((a) => a.warm),
  [false, true, true],
);
