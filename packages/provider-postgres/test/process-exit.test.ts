import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const program = fileURLToPath(new URL('./support/exit-without-close.mjs', import.meta.url));

/** Far longer than a program needs to end, and far shorter than any of its waits. */
const EXIT_WITHIN_MS = 15_000;

it.each(['postgres', 'in-memory'])(
  'a program ends on its own once its runtime shut down, without closing its provider (%s)',
  async (store) => {
    // A migrated schema the test drops afterwards (the in-memory program does not use it).
    const { schema } = await database.newProvider({}, 'process_exit');
    const child = fork(program, [store, database.url, schema], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const outputs: unknown[] = [];
    child.on('message', (message) => outputs.push(message));
    const ended = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), EXIT_WITHIN_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ended) child.kill('SIGKILL');
    expect(ended, `the program still ran ${EXIT_WITHIN_MS} ms after its runtime shut down`).toBe(
      true,
    );
    expect(child.exitCode).toBe(0);
    expect(outputs).toEqual(['Hello, exit!']);
  },
);
