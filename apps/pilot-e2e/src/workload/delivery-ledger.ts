import type { SessionMessage } from './session-message.js';

/** Most anomaly descriptions a ledger keeps (it counts them all). */
const MAX_RECORDED_ANOMALIES = 20;

/**
 * What a session has been delivered, kept in its durable state across continue-as-new: the next
 * expected sequence number of each sender and every departure from exactly-once, in-order
 * delivery. Because it lives in the orchestration's state, it is rebuilt from history on every
 * replay: it records what the store delivered, not what one process saw.
 */
export interface DeliveryLedger {
  /** Next expected client sequence number (= client messages delivered). */
  readonly client: number;
  /** Per child: next expected update number, the nonce of the last update, and whether it ended. */
  readonly children: Readonly<Record<string, ChildProgress>>;
  /** Child updates delivered again because the sending activity ran again (allowed). */
  readonly resent: number;
  /** Deliveries that broke exactly-once or order. */
  readonly anomalyCount: number;
  /** The first few anomalies, described. */
  readonly anomalies: readonly string[];
}

/** Delivery progress of one child's updates. */
export interface ChildProgress {
  readonly next: number;
  /** Nonces of the last few updates delivered, newest last. */
  readonly nonces: readonly string[];
  readonly final: boolean;
}

/** How many nonces per child a ledger remembers to tell a store duplicate from a re-send. */
const REMEMBERED_NONCES = 4;

/** The ledger of a session that has received nothing. */
export const EMPTY_LEDGER: DeliveryLedger = {
  client: 0,
  children: {},
  resent: 0,
  anomalyCount: 0,
  anomalies: [],
};

function withAnomaly(ledger: DeliveryLedger, description: string): DeliveryLedger {
  return {
    ...ledger,
    anomalyCount: ledger.anomalyCount + 1,
    anomalies:
      ledger.anomalies.length < MAX_RECORDED_ANOMALIES
        ? [...ledger.anomalies, description]
        : ledger.anomalies,
  };
}

/**
 * Records one delivered message. Client messages must arrive exactly as 0, 1, 2, …; a child's
 * updates likewise, except that an update already delivered may come again with a different
 * nonce: its activity ran again (after a crash, or in a worker that was frozen past its lock and
 * woke up later). Anything else is an anomaly: a gap (a message lost, or consumed by a losing
 * race), a repeat with a nonce already seen (the store delivered one message twice), a client
 * message out of order, or anything after a child's final update that is not a re-send.
 */
export function recordDelivery(ledger: DeliveryLedger, message: SessionMessage): DeliveryLedger {
  if (message.kind !== 'update') {
    if (message.seq === ledger.client) return { ...ledger, client: ledger.client + 1 };
    return withAnomaly(
      ledger,
      `client message ${message.seq} arrived when ${ledger.client} was due`,
    );
  }
  const progress = ledger.children[message.from] ?? { next: 0, nonces: [], final: false };
  if (message.seq === progress.next && !progress.final) {
    const nonces = [...progress.nonces, message.nonce].slice(-REMEMBERED_NONCES);
    return {
      ...ledger,
      children: {
        ...ledger.children,
        [message.from]: { next: progress.next + 1, nonces, final: message.final },
      },
    };
  }
  const seen = progress.nonces.includes(message.nonce);
  if (message.seq < progress.next && !seen) return { ...ledger, resent: ledger.resent + 1 };
  const why = seen ? 'twice (same nonce)' : `when ${progress.next} was due`;
  return withAnomaly(ledger, `update ${message.seq} of ${message.from} arrived ${why}`);
}

/** How many children have sent their final update. */
export function finishedChildren(ledger: DeliveryLedger): number {
  return Object.values(ledger.children).filter((progress) => progress.final).length;
}
