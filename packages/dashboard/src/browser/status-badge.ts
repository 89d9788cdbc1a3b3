import { el } from './dom.js';

/** A coloured badge for an execution status (`-` when unknown). */
export function statusBadge(status: string | null): HTMLElement {
  const known = ['Running', 'Completed', 'Failed', 'ContinuedAsNew'];
  return el(
    'span',
    { class: `badge ${status !== null && known.includes(status) ? status : ''}` },
    status ?? '-',
  );
}
