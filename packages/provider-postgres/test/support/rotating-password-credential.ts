import { randomBytes } from 'node:crypto';
import type { EntraAccessToken, EntraCredential } from '../../src/index.js';

/**
 * An Entra-style credential for a local PostgreSQL: its token is the password of a role, which
 * {@link rotate} changes with `ALTER ROLE`, as Entra ID issues a new token. No Azure involved.
 */
export class RotatingPasswordCredential implements EntraCredential {
  /** The scopes of every `getToken` call, in order. */
  readonly scopes: (string | string[])[] = [];
  /** Every token handed out, in order. */
  readonly served: string[] = [];
  #password = RotatingPasswordCredential.newPassword();
  #failuresLeft = 0;
  #waiters: { token: string; resolve: () => void }[] = [];

  constructor(
    /** Runs SQL as a superuser of the server the role is on. */
    private readonly admin: (sql: string) => Promise<unknown>,
    readonly role: string,
    /** How long each token is valid, ms. */
    private readonly lifetimeMs: number = 60 * 60_000,
  ) {}

  static newPassword(): string {
    return `token-${randomBytes(12).toString('hex')}`;
  }

  /** The current token. */
  get password(): string {
    return this.#password;
  }

  /** Creates the role with the current token as its password and the rights to migrate. */
  async createRole(): Promise<void> {
    await this.admin(`CREATE ROLE ${this.role} LOGIN PASSWORD '${this.#password}'`);
    await this.admin(`GRANT CREATE ON DATABASE postgres TO ${this.role}`);
  }

  /** Gives the role a new password; from now on the credential hands out the new token. */
  async rotate(): Promise<string> {
    const password = RotatingPasswordCredential.newPassword();
    await this.admin(`ALTER ROLE ${this.role} PASSWORD '${password}'`);
    this.#password = password;
    return password;
  }

  /** The next `count` calls fail, as a token service that is down. */
  failNext(count: number): void {
    this.#failuresLeft = count;
  }

  /** Resolves once the credential has handed out the current token. */
  async servedCurrent(): Promise<void> {
    const token = this.#password;
    if (this.served.includes(token)) return;
    await new Promise<void>((resolve) => this.#waiters.push({ token, resolve }));
  }

  async getToken(scopes: string | string[]): Promise<EntraAccessToken> {
    this.scopes.push(scopes);
    if (this.#failuresLeft > 0) {
      this.#failuresLeft -= 1;
      throw new Error('token service unavailable');
    }
    const token = this.#password;
    this.served.push(token);
    for (const waiter of this.#waiters.filter((w) => w.token === token)) waiter.resolve();
    this.#waiters = this.#waiters.filter((w) => w.token !== token);
    return { token, expiresOnTimestamp: Date.now() + this.lifetimeMs };
  }
}
