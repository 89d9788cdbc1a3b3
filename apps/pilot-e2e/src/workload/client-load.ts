import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@duro/core';
import { SeededRandom } from './seeded-random.js';
import type { ClientMessage } from './session-message.js';
import { SESSION_ORCHESTRATION, SESSION_QUEUE, type SessionPlan } from './session-plan.js';
import { initialSessionInput, type SessionKnobs } from './session-input.js';

const TICK_MS = 100;
/** How long a client keeps retrying one enqueue (a database restart takes seconds), ms. */
const ENQUEUE_DEADLINE_MS = 60_000;
const START_CONCURRENCY = 8;

/** A root session and the schema (client) it lives in. */
export interface RootSession {
  readonly schema: string;
  readonly plan: SessionPlan;
}

/** What the clients did. */
export interface ClientFigures {
  readonly messagesSent: number;
  readonly bursts: number;
  /** Bursts sent because a session announced continue-as-new. */
  readonly continueAsNewBursts: number;
  /** Enqueues that failed after every retry (the message may or may not be stored). */
  readonly failedSends: readonly string[];
}

interface SessionSender {
  readonly root: RootSession;
  readonly client: Client;
  /** Client messages enqueued so far, the `close` included. */
  sent: number;
  chain: Promise<void>;
  /** Bursts scheduled and not yet sent. */
  pending: number;
}

/** The key of a session across schemas. */
export function sessionKey(schema: string, id: string): string {
  return `${schema}/${id}`;
}

/**
 * The run's clients: they start the root sessions, then send each one its planned messages in
 * bursts spread over the load window (and an extra burst whenever a session announces that it
 * is about to continue as new), then a `close`. Messages to one session are enqueued one after
 * the other, so their order is the order they were sent in.
 */
export class ClientLoad {
  private readonly senders: SessionSender[];
  private readonly random: SeededRandom;
  private bursts = 0;
  private continueAsNewBursts = 0;
  private readonly failedSends: string[] = [];
  /** Per session key, the messages enqueued again after an enqueue failed. */
  private readonly resent = new Map<string, Set<number>>();

  constructor(
    roots: readonly RootSession[],
    clients: ReadonlyMap<string, Client>,
    private readonly knobs: SessionKnobs,
    private readonly maxBurst: number,
  ) {
    this.random = new SeededRandom(knobs.seed, 'client-load');
    this.senders = roots.map((root) => {
      const client = clients.get(root.schema);
      if (client === undefined) throw new Error(`no client for schema ${root.schema}`);
      return { root, client, sent: 0, chain: Promise.resolve(), pending: 0 };
    });
  }

  /** Starts every root session. */
  async startSessions(): Promise<void> {
    const queue = [...this.senders];
    const next = async (): Promise<void> => {
      for (let sender = queue.shift(); sender !== undefined; sender = queue.shift()) {
        const { plan } = sender.root;
        await sender.client.startOrchestration(
          plan.id,
          SESSION_ORCHESTRATION,
          initialSessionInput(plan, this.knobs),
        );
      }
    };
    await Promise.all(Array.from({ length: START_CONCURRENCY }, next));
  }

  /** Sends every message within `durationMs`, then waits for the last enqueue. */
  async run(durationMs: number): Promise<void> {
    const endMs = Date.now() + durationMs;
    const averageBurst = (1 + this.maxBurst) / 2;
    while (Date.now() < endMs && this.senders.some((sender) => this.remaining(sender) > 0)) {
      const ticksLeft = Math.max((endMs - Date.now()) / TICK_MS, 1);
      for (const sender of this.senders) {
        const remaining = this.remaining(sender);
        if (remaining === 0 || sender.pending > 0) continue;
        if (this.random.chance(remaining / (averageBurst * ticksLeft))) {
          this.burst(sender, this.random.between(1, this.maxBurst));
        }
      }
      await sleep(TICK_MS);
    }
    for (const sender of this.senders) this.burst(sender, this.remaining(sender));
    await Promise.all(this.senders.map((sender) => sender.chain));
  }

  /** A session is about to continue as new: send it a burst that lands across the boundary. */
  burstOnContinueAsNew(schema: string, session: string): void {
    const sender = this.senders.find(
      (candidate) => candidate.root.schema === schema && candidate.root.plan.id === session,
    );
    if (sender === undefined || this.remaining(sender) === 0) return;
    this.continueAsNewBursts += 1;
    this.burst(sender, Math.min(this.maxBurst, this.remaining(sender)));
  }

  /** Client messages enqueued per session key (see {@link sessionKey}), the `close` included. */
  sentPerSession(): Map<string, number> {
    return new Map(
      this.senders.map((sender) => [
        sessionKey(sender.root.schema, sender.root.plan.id),
        sender.sent,
      ]),
    );
  }

  /** Per session key, the sequence numbers enqueued again after an enqueue failed. */
  resentPerSession(): Map<string, ReadonlySet<number>> {
    return new Map(this.resent);
  }

  figures(): ClientFigures {
    return {
      messagesSent: this.senders.reduce((sum, sender) => sum + sender.sent, 0),
      bursts: this.bursts,
      continueAsNewBursts: this.continueAsNewBursts,
      failedSends: [...this.failedSends],
    };
  }

  /** Messages still to send, the `close` included. */
  private remaining(sender: SessionSender): number {
    return sender.root.plan.clientMessages + 1 - sender.sent;
  }

  private burst(sender: SessionSender, count: number): void {
    if (count <= 0) return;
    this.bursts += 1;
    sender.pending += 1;
    const { plan } = sender.root;
    sender.chain = sender.chain.then(async () => {
      // Bursts may overlap; the cap keeps the `close` last and sent once.
      for (let index = 0; index < count && sender.sent <= plan.clientMessages; index += 1) {
        const seq = sender.sent;
        const message: ClientMessage = {
          from: 'client',
          seq,
          kind: seq === plan.clientMessages ? 'close' : 'prompt',
        };
        await this.enqueue(sender, message);
        sender.sent += 1;
      }
      sender.pending -= 1;
    });
  }

  private async enqueue(sender: SessionSender, message: ClientMessage): Promise<void> {
    const { plan, schema } = sender.root;
    const deadline = Date.now() + ENQUEUE_DEADLINE_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await sender.client.enqueueEvent(plan.id, SESSION_QUEUE, message);
        return;
      } catch (error) {
        if (Date.now() > deadline) {
          this.failedSends.push(`${schema}/${plan.id} #${message.seq}: ${String(error)}`);
          return;
        }
        // The failed enqueue may have committed (the answer was lost): the next is a re-send.
        const key = sessionKey(schema, plan.id);
        const resent = this.resent.get(key) ?? new Set<number>();
        resent.add(message.seq);
        this.resent.set(key, resent);
        await sleep(Math.min(50 * attempt, 1_000));
      }
    }
  }
}
