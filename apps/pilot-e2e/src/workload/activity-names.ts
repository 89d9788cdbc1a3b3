import type { RetryPolicy } from '@duro/core';
import type { SessionInput } from './session-input.js';

/**
 * The retry of the activities that call the client (spawning a child, notifying the parent,
 * raising a digest's event). Chaos terminates connections and restarts the server, and a call
 * caught by that fails; a production session retries it rather than fail, for up to about 25 s
 * (100 ms doubling over 8 attempts), longer than a server restart takes. A re-sent update is
 * told apart by its nonce, and starting an existing child is ignored, so a retry after a call
 * that did land is harmless.
 */
export const CLIENT_CALL_RETRY: RetryPolicy = { maxAttempts: 8, backoff: 'exponential' };

/** The session-affine activity that stands for one LLM turn. */
export const TURN = 'SwarmTurn';
/** The activity a child uses to enqueue an update onto its parent's queue. */
export const NOTIFY_PARENT = 'SwarmNotifyParent';
/** The activity that starts a child session with a client. */
export const SPAWN_CHILD = 'SwarmSpawnChild';

/** A session-affine step of a turn (a tool call): runs for a while, cancellable. */
export const TOOL = 'SwarmTool';
/** The activity that raises the external event a digest sub-orchestration waits for. */
export const RAISE_DIGEST = 'SwarmRaiseDigest';
/** The sub-orchestration a session runs every few turns. */
export const DIGEST_ORCHESTRATION = 'SwarmDigest';
/** The external event a digest waits for. */
export const DIGEST_EVENT = 'digest-ready';

/** Input of {@link TOOL}. */
export interface ToolInput {
  readonly session: string;
  /** Which step of its turn this is, for logs. */
  readonly step: string;
  readonly durationMs: number;
}

/** Input of {@link DIGEST_ORCHESTRATION}. */
export interface DigestInput {
  readonly session: string;
  readonly turn: number;
}

/** Input of {@link RAISE_DIGEST}: the digest instance to raise {@link DIGEST_EVENT} on. */
export interface RaiseDigestInput {
  readonly instance: string;
  readonly turn: number;
}

/** The id of the digest sub-orchestration a session runs after turn `turn`. */
export function digestInstanceId(session: string, turn: number): string {
  return `${session}:digest-${turn}`;
}

/** The session a digest instance id belongs to, or `null` for any other id. */
export function digestSession(instance: string): string | null {
  const match = /^(.*):digest-\d+$/.exec(instance);
  return match?.[1] ?? null;
}

/** Input of {@link TURN}. */
export interface TurnInput {
  readonly session: string;
  readonly iteration: number;
  /** Labels of the messages this turn handles. */
  readonly items: readonly string[];
  /** How long the turn runs. */
  readonly durationMs: number;
  /** The session continues as new right after this turn. */
  readonly beforeContinueAsNew: boolean;
}

/** Input of {@link NOTIFY_PARENT}. */
export interface NotifyParentInput {
  readonly parent: string;
  readonly from: string;
  readonly seq: number;
  readonly final: boolean;
}

/** Input of {@link SPAWN_CHILD}. */
export interface SpawnChildInput {
  readonly id: string;
  readonly input: SessionInput;
}
