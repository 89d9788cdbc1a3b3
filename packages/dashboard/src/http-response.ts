import type { ServerResponse } from 'node:http';

/**
 * Headers on every answer: scripts and styles only from the dashboard itself (an injected tag
 * could not run), no framing, no referrer (a page URL may carry the access token), no sniffing,
 * no caching of data.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Writes the status, the security headers and `headers`. */
export function writeHead(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
): void {
  response.writeHead(status, { ...SECURITY_HEADERS, ...headers });
}

/** Answers with `body` as JSON. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  writeHead(response, status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

/** Answers with `{ error: message }`. */
export function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: message });
}

/** Answers with a short plain-text message (for pages, where JSON would not help). */
export function sendText(response: ServerResponse, status: number, text: string): void {
  writeHead(response, status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(`${text}\n`);
}
