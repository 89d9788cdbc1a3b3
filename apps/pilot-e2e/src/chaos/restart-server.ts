import type { ChaosContext, FaultOutcome } from './chaos-context.js';

/**
 * Crashes the run's own PostgreSQL (immediate shutdown: every connection drops, nothing is
 * checkpointed) and starts it again on the same data directory and port after
 * `chaos.serverDownMs`, while the workers keep running: they must reconnect, and every claim,
 * acknowledgement and client write that committed before the crash must still be there. The
 * span it was down is recorded as an outage.
 */
export async function restartServer(context: ChaosContext): Promise<FaultOutcome> {
  const atMs = Date.now();
  if (context.server === undefined) {
    return {
      kind: 'server-restart',
      injected: false,
      target: '-',
      atMs,
      detail: 'the run does not own its server (--database-url)',
    };
  }
  const { crashedAtMs, readyAtMs } = await context.server.crashAndRestart(
    context.config.chaos.serverDownMs,
  );
  context.outages.push({ fromMs: crashedAtMs, toMs: readyAtMs });
  return {
    kind: 'server-restart',
    injected: true,
    target: 'postgresql',
    atMs,
    detail: `down for ${readyAtMs - crashedAtMs} ms (crash, recovery and start)`,
  };
}
