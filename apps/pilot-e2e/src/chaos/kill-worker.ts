import { pickRunning, waitFor, type ChaosContext, type FaultOutcome } from './chaos-context.js';

const FIND_TARGET_TIMEOUT_MS = 5_000;

/** SIGKILLs a worker that is running a turn activity right now. */
export async function killMidActivity(context: ChaosContext): Promise<FaultOutcome> {
  const atMs = Date.now();
  const slot = await waitFor(
    () => pickRunning(context, (candidate) => candidate.turnsInFlight > 0),
    FIND_TARGET_TIMEOUT_MS,
  );
  if (slot === undefined) {
    return {
      kind: 'kill-mid-activity',
      injected: false,
      target: '-',
      atMs,
      detail: 'no worker had a turn in flight',
    };
  }
  const turns = slot.turnsInFlight;
  slot.signal('SIGKILL');
  // Not a target any more, though its exit is yet to be reported.
  slot.state = 'down';
  return {
    kind: 'kill-mid-activity',
    injected: true,
    target: slot.nodeId,
    atMs,
    detail: `SIGKILL with ${turns} turn(s) in flight`,
  };
}

/**
 * Arms a worker to SIGKILL itself right after it sends its next acknowledgement (of a turn or of
 * an activity), so the process dies while the commit is on the wire.
 */
export async function killMidAck(context: ChaosContext): Promise<FaultOutcome> {
  const atMs = Date.now();
  const slot = pickRunning(context);
  if (slot === undefined) {
    return {
      kind: 'kill-mid-ack',
      injected: false,
      target: '-',
      atMs,
      detail: 'no worker running',
    };
  }
  const life = slot.lives;
  slot.send({ type: 'arm-ack-kill' });
  const died = await waitFor(
    () => (slot.lives !== life || slot.state === 'down' ? true : undefined),
    FIND_TARGET_TIMEOUT_MS,
  );
  if (died === undefined) {
    slot.send({ type: 'disarm-ack-kill' });
    return {
      kind: 'kill-mid-ack',
      injected: false,
      target: slot.nodeId,
      atMs,
      detail: 'no ack in time',
    };
  }
  return {
    kind: 'kill-mid-ack',
    injected: true,
    target: slot.nodeId,
    atMs,
    detail: 'SIGKILL during an ack',
  };
}
