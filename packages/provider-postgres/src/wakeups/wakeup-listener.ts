import pg from 'pg';
import type { WakeupQueue } from '../wakeup-channel.js';

/** First wait before reconnecting a lost listening connection, ms; doubles up to the maximum. */
const RECONNECT_INITIAL_DELAY_MS = 100;
const RECONNECT_MAX_DELAY_MS = 5_000;

/**
 * What the listener reports: a notification on a queue's channel (work may be fetchable now),
 * one that says when a delayed message written to the queue comes due (duro migration 13), or
 * `all` when notifications may have been missed (the connection was just made, or was lost) and
 * every waiter should look again.
 * @internal
 */
export type WakeupSignal =
  WakeupQueue | { readonly queue: WakeupQueue; readonly dueMs: number } | 'all';

/** The due time a notification's payload carries, epoch ms, or `null` for a plain wake-up. */
function dueTimeOf(payload: string | undefined): number | null {
  if (payload === undefined || !/^\d+$/.test(payload)) return null;
  return Number(payload);
}

/**
 * One dedicated connection that LISTENs on a schema's wake-up channels and reconnects, with
 * backoff, when it is lost. It is not taken from the pool: a pooled connection is shared and
 * would stop listening when handed to the next caller.
 * @internal
 */
export class WakeupListener {
  readonly #config: pg.ClientConfig;
  readonly #channels: ReadonlyMap<string, WakeupQueue>;
  readonly #signal: (signal: WakeupSignal) => void;
  #client: pg.Client | null = null;
  #connected = false;
  #started = false;
  #closed = false;
  #reconnectDelayMs = RECONNECT_INITIAL_DELAY_MS;
  #reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    config: pg.ClientConfig,
    channels: Readonly<Record<WakeupQueue, string>>,
    signal: (signal: WakeupSignal) => void,
  ) {
    this.#config = { ...config, keepAlive: true };
    this.#channels = new Map([
      [channels.orchestrator, 'orchestrator'],
      [channels.worker, 'worker'],
    ]);
    this.#signal = signal;
  }

  /** Whether LISTEN is in effect right now; while not, waiters fall back to polling. */
  get connected(): boolean {
    return this.#connected;
  }

  /** Opens the connection on first use; later calls do nothing. */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    void this.#connect();
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer !== null) clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#client = null;
    this.#connected = false;
    if (client !== null) await client.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    this.#client = client;
    client.on('notification', (message) => {
      const queue = this.#channels.get(message.channel);
      if (queue === undefined) return;
      const dueMs = dueTimeOf(message.payload);
      this.#signal(dueMs === null ? queue : { queue, dueMs });
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      for (const channel of this.#channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      this.#lost(client);
      return;
    }
    if (this.#client !== client) return;
    // Listening alone does not keep the process alive; a waiting fetch's own timer does.
    // (`pg.Client#unref` exists since pg 8.2 but @types/pg does not declare it.)
    (client as unknown as { unref(): void }).unref();
    this.#connected = true;
    this.#reconnectDelayMs = RECONNECT_INITIAL_DELAY_MS;
    // Work that arrived before LISTEN took effect sent notifications nobody heard.
    this.#signal('all');
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    this.#connected = false;
    void client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#signal('all');
    const delay = this.#reconnectDelayMs;
    this.#reconnectDelayMs = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      if (!this.#closed) void this.#connect();
    }, delay);
    this.#reconnectTimer.unref();
  }
}
