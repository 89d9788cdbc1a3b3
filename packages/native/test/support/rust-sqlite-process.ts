import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { RustSideWorker } from '../shared-store-workers.js';

type WorkerMessage =
  { readonly type: 'ready' } | { readonly type: 'stopped'; readonly activityInputs: string[] };

function nextMessage(child: ChildProcess, type: WorkerMessage['type']): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      if (message.type !== type) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the Rust SQLite worker exited (code ${code}) before '${type}'`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * Starts a Rust duroxide worker on `file` in a child process (see `rust-sqlite-worker.mjs`) and
 * resolves once it serves the file.
 */
export async function startRustSqliteProcess(file: string): Promise<RustSideWorker> {
  const child = fork(new URL('./rust-sqlite-worker.mjs', import.meta.url), [file], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await nextMessage(child, 'ready');
  let activityInputs: string[] | null = null;
  return {
    async stop() {
      if (activityInputs !== null) return;
      const stopped = nextMessage(child, 'stopped');
      child.send('stop');
      const message = await stopped;
      activityInputs = message.type === 'stopped' ? message.activityInputs : [];
      if (child.exitCode === null) await once(child, 'exit');
    },
    async activityInputs() {
      if (activityInputs === null) throw new Error('stop the Rust SQLite worker first');
      return activityInputs;
    },
  };
}
