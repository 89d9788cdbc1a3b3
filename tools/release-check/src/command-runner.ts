import { spawn } from 'node:child_process';

/** What a finished child process printed. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Thrown when a command exits non-zero; carries what it printed, so the failure is readable. */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
}

/**
 * Runs `command args` in `cwd` with `env` added to this process's environment, and resolves
 * with its output once it exited 0.
 * @throws {CommandFailedError} with the command line, the exit code and its last output lines.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) {
        resolve({ stdout, stderr });
        return;
      }
      const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
      reject(
        new CommandFailedError(
          `'${command} ${args.join(' ')}' in ${cwd} exited with ${code}:\n${tail}`,
        ),
      );
    });
  });
}
