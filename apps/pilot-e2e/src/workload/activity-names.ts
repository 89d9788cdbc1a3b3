import type { SessionInput } from './session-input.js';

/** The session-affine activity that stands for one LLM turn. */
export const TURN = 'SwarmTurn';
/** The activity a child uses to enqueue an update onto its parent's queue. */
export const NOTIFY_PARENT = 'SwarmNotifyParent';
/** The activity that starts a child session with a client. */
export const SPAWN_CHILD = 'SwarmSpawnChild';

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
