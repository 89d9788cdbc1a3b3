/** A dashboard's HTTP API seen from a test: JSON reads and raw requests. */
export interface DashboardHttp {
  /** `GET` of `path` (relative to the dashboard) as JSON; fails the test on an error status. */
  json<T>(path: string): Promise<T>;
  /** A request to `path` as it is, for the status and headers. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Requests to the dashboard at `baseUrl` (ending in `/`), with `headers` on each. */
export function dashboardHttp(
  baseUrl: string,
  headers: Readonly<Record<string, string>> = {},
): DashboardHttp {
  const request = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
    });
  return {
    request,
    async json<T>(path: string) {
      const response = await request(path);
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as T;
    },
  };
}
