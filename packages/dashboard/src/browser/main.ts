/**
 * The dashboard page: reads the session, then shows the page the address names (`#/` instances,
 * `#/instance/ID`, `#/queues`) and switches pages as the address changes.
 */
import type { SessionInfo } from '../shared/api-types.js';
import { getJson } from './api-client.js';
import { el, replaceChildren } from './dom.js';
import { instanceView } from './instance-view.js';
import { instancesView } from './instances-view.js';
import type { Dispose } from './polling.js';
import { queuesView } from './queues-view.js';
import { parseRoute } from './routes.js';

const main = document.getElementById('view') as HTMLElement;

async function start(): Promise<void> {
  let session: SessionInfo;
  try {
    session = await getJson<SessionInfo>('session');
  } catch (error) {
    replaceChildren(main, el('div', { class: 'error' }, (error as Error).message));
    return;
  }
  (document.getElementById('schema') as HTMLElement).textContent = `schema ${session.schema}`;
  const mode = document.getElementById('mode') as HTMLElement;
  mode.textContent = session.actionsEnabled ? 'actions enabled' : 'read-only';
  mode.classList.toggle('mode-actions', session.actionsEnabled);
  let dispose: Dispose = () => undefined;
  const show = () => {
    dispose();
    const route = parseRoute(window.location.hash);
    document.getElementById('nav-instances')?.classList.toggle('active', route.page !== 'queues');
    document.getElementById('nav-queues')?.classList.toggle('active', route.page === 'queues');
    dispose =
      route.page === 'queues'
        ? queuesView(main, session.sampleIntervalMs)
        : route.page === 'instance'
          ? instanceView(main, session, route.instanceId, route.executionId)
          : instancesView(main, session, route.filters);
  };
  window.addEventListener('hashchange', show);
  show();
}

void start();
