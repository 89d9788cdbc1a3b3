/** The page a hash names: the instance list (with its filters), one instance, or the queues. */
export type Route =
  | { readonly page: 'instances'; readonly filters: URLSearchParams }
  | { readonly page: 'instance'; readonly instanceId: string; readonly executionId: number | null }
  | { readonly page: 'queues' };

/** The route of `hash` (`#/`, `#/?status=Failed`, `#/instance/ID?execution=2`, `#/queues`). */
export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  if (path === '/queues') return { page: 'queues' };
  const instance = /^\/instance\/(.+)$/.exec(path)?.[1];
  if (instance !== undefined) {
    const execution = Number(query.get('execution'));
    return {
      page: 'instance',
      instanceId: decodeURIComponent(instance),
      executionId: Number.isInteger(execution) && execution > 0 ? execution : null,
    };
  }
  return { page: 'instances', filters: query };
}

/** The hash of an instance's page. */
export function instanceHref(instanceId: string, executionId?: number): string {
  return `#/instance/${encodeURIComponent(instanceId)}${executionId === undefined ? '' : `?execution=${executionId}`}`;
}
