import { ProviderError } from '@duro/core';
import { AccessTokenError } from './access-token-error.js';

/**
 * How a failed statement is handled:
 * - `conflict`: the transaction lost a race (serialization failure `40001`, deadlock `40P01`) or
 *   its cached plan went stale after a migration redefined a procedure (`0A000`). Nothing was
 *   committed, so the provider runs the statement again itself, a bounded number of times.
 * - `transient`: the connection was lost or refused, the server is shutting down or out of
 *   resources, a lock or statement timeout fired, or an Entra ID access token could not be had
 *   or was refused while it was rotated. The caller may try again later.
 * - `permanent`: trying again fails the same way (a constraint, an exception a procedure raised).
 */
export type FailureClass = 'conflict' | 'transient' | 'permanent';

/** SQLSTATEs retried inside the provider (see {@link FailureClass}). */
const CONFLICT_STATES = new Set(['40001', '40P01', '0A000']);

/**
 * SQLSTATEs that say the session or server is in trouble, not the statement: lock timeout
 * (`55P03`), statement timeout or cancel (`57014`), a terminated backend or a server shutting
 * down or starting (`57P01`–`57P05`), and the whole of class `08` (connection exception) and
 * `53` (insufficient resources, such as too many connections).
 */
const TRANSIENT_STATES = new Set(['55P03', '57014', '57P01', '57P02', '57P03', '57P04', '57P05']);
const TRANSIENT_CLASSES = new Set(['08', '53']);

/**
 * Node socket error codes and messages of `pg` and `pg-pool` that mean the connection is gone or
 * could not be made.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const NETWORK_MESSAGES = [
  'Connection terminated',
  'connection error',
  'not queryable',
  'timeout exceeded when trying to connect',
  'Connection ended',
];

/** Node's codes for a server certificate that TLS verification refused. */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
]);

/** The SQLSTATE of a PostgreSQL error, or `undefined` for anything else. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  // pg's DatabaseError carries the server's severity; a socket error has a code but no severity.
  return typeof code === 'string' && typeof severity === 'string' ? code : undefined;
}

/** Whether `error` means the connection was lost or could not be made. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const state = sqlState(error);
  if (state !== undefined) return state.startsWith('08') || state.startsWith('57P');
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return NETWORK_MESSAGES.some((text) => error.message.includes(text));
}

/** Classifies a failed statement; see {@link FailureClass}. */
export function classifyFailure(error: unknown): FailureClass {
  if (AccessTokenError.isInstance(error)) return 'transient';
  const state = sqlState(error);
  if (state === undefined) return isConnectionFailure(error) ? 'transient' : 'permanent';
  if (CONFLICT_STATES.has(state)) return 'conflict';
  if (TRANSIENT_STATES.has(state) || TRANSIENT_CLASSES.has(state.slice(0, 2))) return 'transient';
  return 'permanent';
}

/**
 * A message a stored procedure raises that callers match on, and the duroxide text the provider
 * reports for it (the texts of duroxide-pg's `src/provider.rs`).
 */
export interface KnownFailure {
  /** A substring of the database message. */
  readonly whenMessageContains: string;
  /**
   * The detail of the permanent {@link ProviderError}, callers match on it: a fixed text, or one
   * made from the database message.
   */
  readonly detail: string | ((databaseMessage: string) => string);
}

/** What the failed operation was working on, named in the error message. */
export interface FailureSubject {
  /** The instance, when the provider knows it. */
  readonly instance?: string | undefined;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const state = sqlState(error);
  return state === undefined ? error.message : `${error.message} (SQLSTATE ${state})`;
}

function forSubject(detail: string, subject: FailureSubject): string {
  return subject.instance === undefined ? detail : `${detail} (instance ${subject.instance})`;
}

function summary(failure: FailureClass, error: unknown): string {
  const state = sqlState(error);
  switch (failure) {
    case 'conflict':
      if (state === '40P01') return 'Deadlock detected';
      if (state === '0A000') return 'Cached plan invalidated';
      return 'Serialization failure';
    case 'transient':
      if (AccessTokenError.isInstance(error)) return 'No usable access token';
      return isConnectionFailure(error) ? 'Connection lost or refused' : 'Database busy';
    case 'permanent':
      if (state === '23505') return 'Duplicate detected';
      if (CERTIFICATE_CODES.has(String((error as { code?: unknown }).code))) {
        return "TLS refused the server's certificate: it does not chain to a trusted CA (set the CA with ssl.ca, sslrootcert or PGSSLROOTCERT)";
      }
      if ((error as { code?: unknown }).code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
        return "TLS refused the server's certificate: it does not name the host connected to (connect by a name the certificate has)";
      }
      if (state === '28000' && (error as Error).message.includes('no encryption')) {
        return 'The server takes TLS connections only (set sslmode, verify-full in production)';
      }
      return 'Database error';
  }
}

/**
 * The {@link ProviderError} for a failed statement of `operation`. A message listed in `known`
 * becomes a permanent error with duroxide's text; otherwise the error is retryable when
 * {@link classifyFailure} says `conflict` or `transient`, and says what failed, for which
 * instance, and the database's own message.
 */
export function toProviderError(
  operation: string,
  error: unknown,
  subject: FailureSubject = {},
  known: readonly KnownFailure[] = [],
): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const match = known.find((k) => message.includes(k.whenMessageContains));
  if (match !== undefined) {
    const detail = typeof match.detail === 'string' ? match.detail : match.detail(message);
    return ProviderError.permanent(operation, forSubject(detail, subject), { cause: error });
  }
  const failure = classifyFailure(error);
  const detail = forSubject(`${summary(failure, error)}: ${describeCause(error)}`, subject);
  return failure === 'permanent'
    ? ProviderError.permanent(operation, detail, { cause: error })
    : ProviderError.retryable(operation, detail, { cause: error });
}
