import { runCli } from '../../src/cli/run-cli.js';

/** What one `duro` run printed and returned. */
export interface DuroRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the `duro` entry in this process, as `duro ...args` would with `env` as its environment,
 * capturing what it prints. `tty` makes standard error a terminal (progress bars redraw).
 */
export async function runDuro(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  tty = false,
): Promise<DuroRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stderrIsTty: tty,
    env,
  });
  return { code, stdout, stderr };
}
