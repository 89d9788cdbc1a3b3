/**
 * What lands on a session's queue: messages from the run's clients, numbered per session from 0
 * (the last one is a `close`), and updates from child sessions, numbered per child from 0 (the
 * last one is `final`). A child sends its updates through an activity, which may run again after
 * a crash; every run of that activity stamps its own `nonce`, so a re-sent update can be told
 * from a message the store delivered twice.
 */
export type SessionMessage = ClientMessage | ChildUpdate;

/** A message a client enqueued. */
export interface ClientMessage {
  readonly from: 'client';
  readonly seq: number;
  readonly kind: 'prompt' | 'close';
}

/** An update a child session enqueued through the `NotifyParent` activity. */
export interface ChildUpdate {
  readonly kind: 'update';
  /** The child's instance id. */
  readonly from: string;
  readonly seq: number;
  /** Unique per run of the activity that sent it. */
  readonly nonce: string;
  /** The child has finished; nothing follows. */
  readonly final: boolean;
}

/** A short, unique name of a message, as stored in the key-value FIFO. */
export function messageLabel(message: SessionMessage): string {
  return `${message.from}#${message.seq}`;
}
