import type {
  InstancePageJson,
  ListedInstanceJson,
  SessionInfo,
  StatusCountsJson,
} from '../shared/api-types.js';
import { getJson } from './api-client.js';
import { el, replaceChildren } from './dom.js';
import { formatCount, formatTime } from './format.js';
import { poll, type Dispose } from './polling.js';
import { instanceHref } from './routes.js';
import { statusBadge } from './status-badge.js';

const STATUSES = ['Running', 'Completed', 'Failed', 'ContinuedAsNew'];
const PAGE_SIZE = 50;
/**
 * Page reads one page request may chain when the server stops at its bound before the page is
 * full (a rare match among many instances); after these the page offers to search on.
 */
const CHAINED_READS = 5;
const FILTERS = ['status', 'name', 'version', 'prefix', 'from', 'before'] as const;

/**
 * The instance list: live counts by status (click one to filter), the filter form, and pages
 * of instances newest first, with older pages by cursor.
 */
export function instancesView(
  main: HTMLElement,
  session: SessionInfo,
  filters: URLSearchParams,
): Dispose {
  const counts = el('div', { class: 'chips', attributes: { 'aria-label': 'Instances by status' } });
  const table = el('div');
  const pager = el('div', { class: 'pager' });
  const cursors: (string | null)[] = [null];
  const filter = Object.fromEntries(FILTERS.map((name) => [name, filters.get(name) ?? '']));

  const showCounts = async () => {
    try {
      const answer = await getJson<StatusCountsJson>('counts');
      const total = answer.counts.reduce((sum, entry) => sum + entry.count, 0);
      const approximate = answer.counts.some((entry) => entry.precision !== 'exact');
      const chip = (label: string, status: string, text: string) =>
        el(
          'button',
          {
            class: `chip${filter.status === status ? ' selected' : ''}`,
            attributes: { type: 'button', 'data-status': status || 'all' },
            onClick: () => navigate({ ...filter, status }),
          },
          status === '' ? label : statusBadge(status),
          el('span', { class: 'count' }, text),
        );
      replaceChildren(
        counts,
        chip('All', '', formatCount(total, approximate ? 'estimate' : 'exact')),
        ...answer.counts.map((entry) =>
          chip(entry.status, entry.status, formatCount(entry.count, entry.precision)),
        ),
        el('span', { class: 'muted' }, `counted ${formatTime(answer.countedAtMs)}`),
      );
    } catch (error) {
      replaceChildren(counts, el('div', { class: 'error' }, (error as Error).message));
    }
  };

  const showPage = async (after: string | null) => {
    replaceChildren(pager, el('span', { class: 'muted' }, 'Loading…'));
    try {
      const rows: ListedInstanceJson[] = [];
      let page: InstancePageJson | null = null;
      let cursor = after;
      for (let read = 0; read < CHAINED_READS && rows.length < PAGE_SIZE; read += 1) {
        page = await getJson<InstancePageJson>('instances', {
          ...filter,
          limit: PAGE_SIZE - rows.length,
          after: cursor,
        });
        rows.push(...page.instances);
        cursor = page.next;
        if (page.searchedBackToMs === null || cursor === null) break;
      }
      renderRows(rows);
      renderPager(page, cursor);
    } catch (error) {
      replaceChildren(table, el('div', { class: 'error' }, (error as Error).message));
      replaceChildren(pager);
    }
  };

  const renderRows = (rows: readonly ListedInstanceJson[]) => {
    if (rows.length === 0) {
      replaceChildren(table, el('p', { class: 'muted' }, 'No instance matches.'));
      return;
    }
    replaceChildren(
      table,
      el(
        'table',
        { attributes: { 'aria-label': 'Instances' } },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...[
              'Instance',
              'Orchestration',
              'Version',
              'Status',
              'Execution',
              'Created',
              'Updated',
            ].map((name) => el('th', {}, name)),
          ),
        ),
        el(
          'tbody',
          {},
          ...rows.map((row) =>
            el(
              'tr',
              { attributes: { 'data-instance': row.instanceId } },
              el(
                'td',
                { class: 'id' },
                el('a', { href: instanceHref(row.instanceId) }, row.instanceId),
              ),
              el('td', {}, row.orchestrationName),
              el('td', {}, row.orchestrationVersion ?? '-'),
              el('td', {}, statusBadge(row.status)),
              el('td', {}, row.executionId),
              el('td', {}, formatTime(row.createdAtMs)),
              el('td', {}, formatTime(row.updatedAtMs)),
            ),
          ),
        ),
      ),
    );
  };

  const renderPager = (page: InstancePageJson | null, next: string | null) => {
    const newer = cursors.length > 1;
    replaceChildren(
      pager,
      el(
        'button',
        {
          attributes: { type: 'button' },
          onClick: () => {
            cursors.splice(1);
            void showPage(null);
          },
        },
        'Newest',
      ),
      newer
        ? el(
            'button',
            {
              attributes: { type: 'button' },
              onClick: () => {
                cursors.pop();
                void showPage(cursors.at(-1) ?? null);
              },
            },
            '← Newer',
          )
        : null,
      next !== null
        ? el(
            'button',
            {
              class: 'primary',
              attributes: { type: 'button', 'data-next': '' },
              onClick: () => {
                cursors.push(next);
                void showPage(next);
              },
            },
            page?.searchedBackToMs != null ? 'Search older' : 'Older →',
          )
        : el('span', { class: 'muted' }, 'No older instance matches.'),
      page?.searchedBackToMs != null
        ? el(
            'span',
            { class: 'muted' },
            `Searched the instances created back to ${formatTime(page.searchedBackToMs)}.`,
          )
        : null,
    );
  };

  const fields = {
    status: el(
      'select',
      { attributes: { name: 'status' } },
      el('option', { attributes: { value: '' } }, 'any'),
      ...STATUSES.map((status) => el('option', { attributes: { value: status } }, status)),
    ),
    name: el('input', { attributes: { name: 'name', placeholder: 'orchestration name' } }),
    version: el('input', { attributes: { name: 'version', placeholder: '1.0.0' } }),
    prefix: el('input', { attributes: { name: 'prefix', placeholder: 'instance id prefix' } }),
    from: el('input', { attributes: { name: 'from', type: 'datetime-local', step: '1' } }),
    before: el('input', { attributes: { name: 'before', type: 'datetime-local', step: '1' } }),
  };
  fields.status.value = filter.status ?? '';
  fields.name.value = filter.name ?? '';
  fields.version.value = filter.version ?? '';
  fields.prefix.value = filter.prefix ?? '';
  fields.from.value = toLocalInput(filter.from);
  fields.before.value = toLocalInput(filter.before);
  const form = el(
    'form',
    {
      class: 'filters',
      attributes: { 'aria-label': 'Filters' },
      onSubmit: (event) => {
        event.preventDefault();
        navigate({
          status: fields.status.value,
          name: fields.name.value.trim(),
          version: fields.version.value.trim(),
          prefix: fields.prefix.value.trim(),
          from: fromLocalInput(fields.from.value),
          before: fromLocalInput(fields.before.value),
        });
      },
    },
    el('label', {}, 'Status', fields.status),
    el('label', {}, 'Orchestration', fields.name),
    el('label', {}, 'Version', fields.version),
    el('label', {}, 'Id prefix', fields.prefix),
    el('label', {}, 'Created from', fields.from),
    el('label', {}, 'Created before', fields.before),
    el('button', { class: 'primary', attributes: { type: 'submit' } }, 'Apply'),
    el('button', { attributes: { type: 'button' }, onClick: () => navigate({}) }, 'Clear'),
  );

  replaceChildren(
    main,
    el('h1', {}, 'Instances'),
    session.listingIndexes
      ? null
      : el(
          'div',
          { class: 'notice' },
          'This schema lacks duro’s listing indexes (duro migration 11, applied by `duro migrate`): lists and counts read more rows and take longer.',
        ),
    counts,
    el('section', { class: 'card' }, form),
    el('section', { class: 'card' }, table, pager),
  );
  void showCounts();
  void showPage(null);
  return poll(5_000, showCounts);
}

function navigate(filter: Readonly<Record<string, string>>): void {
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = filter[name];
    if (value !== undefined && value !== '') query.set(name, value);
  }
  const search = query.toString();
  window.location.hash = search === '' ? '#/' : `#/?${search}`;
}

/** Epoch ms text as a `datetime-local` value (local time), or empty. */
function toLocalInput(epochMs: string | undefined): string {
  if (epochMs === undefined || epochMs === '') return '';
  const date = new Date(Number(epochMs));
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
}

/** A `datetime-local` value (local time) as epoch ms text, or empty. */
function fromLocalInput(value: string): string {
  return value === '' ? '' : String(new Date(value).getTime());
}
