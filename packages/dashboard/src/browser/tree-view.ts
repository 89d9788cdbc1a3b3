import type { TreeNodeJson } from '../shared/api-types.js';
import { el } from './dom.js';
import { instanceHref } from './routes.js';
import { statusBadge } from './status-badge.js';

/** The sub-orchestration tree as nested lists, with `currentId` marked and the others linked. */
export function treeView(root: TreeNodeJson, currentId: string, truncated: boolean): HTMLElement {
  const item = (node: TreeNodeJson): HTMLElement => {
    const current = node.instanceId === currentId;
    return el(
      'li',
      { class: current ? 'current' : '', attributes: { 'data-instance': node.instanceId } },
      el(
        'span',
        { class: 'node' },
        current
          ? node.instanceId
          : el('a', { href: instanceHref(node.instanceId) }, node.instanceId),
        ' ',
        statusBadge(node.status),
        ' ',
        el('span', { class: 'muted' }, node.orchestrationName),
      ),
      node.children.length > 0 ? el('ul', {}, ...node.children.map(item)) : null,
    );
  };
  return el(
    'div',
    { class: 'tree' },
    el('ul', {}, item(root)),
    truncated ? el('p', { class: 'muted' }, 'The tree has more instances than shown.') : null,
  );
}
