import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** What a worker process (`worker-process.mjs`) reports. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'started'; readonly instance: string }
  | { readonly type: 'completed'; readonly instance: string }
  | { readonly type: 'stopped'; readonly records: string[] };

/** A running worker process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Every message it sent so far, in order. */
  readonly messages: readonly WorkerMessage[];
  /** Resolves with the first message (already sent or to come) that `accept` takes. */
  waitFor(accept: (message: WorkerMessage) => boolean): Promise<WorkerMessage>;
  /** Shuts its runtime down and resolves with the `Record` entries it ran. */
  stop(): Promise<string[]>;
}

/**
 * Starts `worker-process.mjs` on `file` (with `args` after it) and resolves once it serves.
 * The child runs the built package (`pnpm build`), as an application would.
 */
export async function startWorkerProcess(
  file: string,
  args: readonly string[] = [],
): Promise<WorkerProcess> {
  const child = fork(new URL('./worker-process.mjs', import.meta.url), [file, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: WorkerMessage[] = [];
  const waiters = new Set<() => void>();
  child.on('message', (message: WorkerMessage) => {
    messages.push(message);
    for (const wake of [...waiters]) wake();
  });
  const waitFor = (accept: (message: WorkerMessage) => boolean) =>
    new Promise<WorkerMessage>((resolve, reject) => {
      const look = () => {
        const found = messages.find(accept);
        if (found !== undefined) {
          waiters.delete(look);
          child.off('exit', onExit);
          resolve(found);
        }
      };
      const onExit = (code: number | null, signal: string | null) => {
        waiters.delete(look);
        reject(new Error(`worker process exited (code ${code}, signal ${signal}) while waited on`));
      };
      waiters.add(look);
      child.once('exit', onExit);
      look();
    });
  await waitFor((message) => message.type === 'ready');
  return {
    child,
    messages,
    waitFor,
    async stop() {
      const stopped = waitFor((message) => message.type === 'stopped');
      child.send('stop');
      const message = await stopped;
      if (child.exitCode === null) await once(child, 'exit');
      return message.type === 'stopped' ? message.records : [];
    },
  };
}
