import { RecentMap } from './recent-map.js';

/** How many lock tokens a provider remembers; the oldest are forgotten first. */
const MAX_REMEMBERED = 10_000;

/**
 * The instance behind each lock token this provider handed out, so that a failed ack, abandon
 * or renewal can say which instance it was about. The procedures only know the token. Tokens of
 * locks that are never released (a worker that stopped) are forgotten once
 * {@link MAX_REMEMBERED} newer ones exist; an error then simply names no instance.
 * @internal
 */
export class LockOwners {
  readonly #instances = new RecentMap<string, string>(MAX_REMEMBERED);

  /** Notes that `token` locks `instance`. */
  remember(token: string, instance: string): void {
    this.#instances.set(token, instance);
  }

  /** The instance `token` locks, when this provider handed it out. */
  instanceOf(token: string): string | undefined {
    return this.#instances.get(token);
  }

  /** Forgets a token whose lock was released. */
  forget(token: string): void {
    this.#instances.delete(token);
  }
}
