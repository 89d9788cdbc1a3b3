import type {
  ActionName,
  ActionRequests,
  ActionResultJson,
  SessionInfo,
} from '../shared/api-types.js';

/** A request the server refused or could not answer; the message is the server's. */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `GET api/<path>` with `parameters` (empty ones left out), as JSON. */
export async function getJson<T>(
  path: string,
  parameters: Readonly<Record<string, string | number | null | undefined>> = {},
): Promise<T> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== null && value !== undefined && value !== '') query.set(name, String(value));
  }
  const search = query.toString();
  return answer<T>(await fetch(`api/${path}${search === '' ? '' : `?${search}`}`));
}

/** Runs an action, sending the session's CSRF token. */
export async function postAction<A extends ActionName>(
  session: SessionInfo,
  name: A,
  request: ActionRequests[A],
): Promise<ActionResultJson> {
  return answer<ActionResultJson>(
    await fetch(`api/actions/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-duro-csrf': session.csrfToken },
      body: JSON.stringify(request),
    }),
  );
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // A page-level refusal (no token) is plain text.
  }
  if (!response.ok) {
    const message =
      typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
        ? body.error
        : text.trim() || `HTTP ${response.status}`;
    throw new ApiFailure(response.status, message);
  }
  return body as T;
}
