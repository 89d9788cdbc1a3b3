import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that carries the access token's digest once `?token=` was given. */
export const SESSION_COOKIE = 'duro_ui_session';
/** The header every action must carry, with the session's CSRF token. */
export const CSRF_HEADER = 'x-duro-csrf';

/** Why a request was refused, with the HTTP status to answer. */
export interface Refusal {
  readonly status: 401 | 403 | 415;
  readonly reason: string;
}

/** How a request proved it may be served. */
export type Credential = 'token' | 'no token required';

/**
 * Decides which requests the dashboard serves: the `Host` they address (against DNS rebinding),
 * the access token (a cookie, a bearer header, or `?token=` on a page), and for actions, that the
 * request comes from the dashboard's own page (CSRF header, same origin, JSON body).
 */
export class AccessGuard {
  readonly #sessionDigest: Buffer | null;
  readonly #token: Buffer | null;
  readonly #allowedHosts: ReadonlySet<string> | null;
  readonly #csrfToken: Buffer;

  constructor(options: {
    readonly accessToken: string | undefined;
    readonly allowedHosts: readonly string[] | undefined;
    readonly csrfToken: string;
  }) {
    this.#token = options.accessToken === undefined ? null : Buffer.from(options.accessToken);
    this.#sessionDigest =
      options.accessToken === undefined ? null : sessionDigest(options.accessToken);
    this.#allowedHosts =
      options.allowedHosts === undefined
        ? null
        : new Set(options.allowedHosts.map((host) => host.toLowerCase()));
    this.#csrfToken = Buffer.from(options.csrfToken);
  }

  /** The `Set-Cookie` value that keeps the session once its token was shown. */
  sessionCookie(path: string): string | null {
    if (this.#sessionDigest === null) return null;
    return `${SESSION_COOKIE}=${this.#sessionDigest.toString('base64url')}; Path=${path}; HttpOnly; SameSite=Strict`;
  }

  /** Whether `token` (from `?token=`) is the access token. */
  acceptsToken(token: string): boolean {
    return this.#token !== null && equal(Buffer.from(token), this.#token);
  }

  /** A refusal when the request addresses a host that is not allowed. */
  checkHost(request: IncomingMessage): Refusal | null {
    if (this.#allowedHosts === null) return null;
    const host = hostName(request.headers.host);
    if (host !== null && this.#allowedHosts.has(host)) return null;
    return {
      status: 403,
      reason: `host '${request.headers.host ?? ''}' is not one this dashboard answers to`,
    };
  }

  /** How the request is allowed in, or `null` when it carries no valid token. */
  authenticate(request: IncomingMessage): Credential | null {
    if (this.#token === null || this.#sessionDigest === null) return 'no token required';
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && equal(Buffer.from(bearer), this.#token)) return 'token';
    const cookie = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (cookie !== null && equal(Buffer.from(cookie, 'base64url'), this.#sessionDigest)) {
      return 'token';
    }
    return null;
  }

  /** A refusal when an action does not come from the dashboard's own page. */
  checkAction(request: IncomingMessage): Refusal | null {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') {
      return { status: 403, reason: `cross-site request (Sec-Fetch-Site: ${String(site)})` };
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const host = request.headers.host ?? '';
      if (origin !== `http://${host}` && origin !== `https://${host}`) {
        return { status: 403, reason: `request from another origin (${origin})` };
      }
    }
    const csrf = request.headers[CSRF_HEADER];
    if (typeof csrf !== 'string' || !equal(Buffer.from(csrf), this.#csrfToken)) {
      return { status: 403, reason: `missing or wrong ${CSRF_HEADER} header` };
    }
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json(;|$)/i.test(type)) {
      return { status: 415, reason: 'an action body must be application/json' };
    }
    return null;
  }
}

function sessionDigest(token: string): Buffer {
  return createHash('sha256').update(`duro-ui-session:${token}`).digest();
}

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The host name of a `Host` header, lower case and without the port. */
function hostName(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(header);
  if (bracketed) return `[${bracketed[1]?.toLowerCase()}]`;
  return (header.split(':')[0] ?? '').toLowerCase();
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}
