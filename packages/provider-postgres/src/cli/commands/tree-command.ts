import type { Command } from '../command.js';
import { requireInstance } from '../instance-lookup.js';
import { requiredPositional } from '../required-positional.js';
import type { CliStore } from '../store-connection.js';
import { formatJson } from '../terminal-output.js';

interface TreeNode {
  readonly instanceId: string;
  readonly orchestrationName: string;
  readonly status: string;
  readonly children: readonly TreeNode[];
}

/** `duro tree INSTANCE`: the instance's root and every sub-orchestration under it. */
export const treeCommand: Command = {
  name: 'tree',
  summary: 'show the tree of sub-orchestrations an instance belongs to',
  usage: 'INSTANCE [--json]',
  details: [],
  options: [],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const store = await context.store();
    let root = await requireInstance(store, instanceId);
    while (root.parentInstanceId !== null) {
      root = await store.management.getInstanceInfo(root.parentInstanceId);
    }
    const tree = await node(store, root.instanceId);
    if (context.json) {
      context.io.stdout.write(formatJson(tree));
      return;
    }
    const lines: string[] = [];
    const draw = (current: TreeNode, prefix: string, last: boolean, top: boolean): void => {
      const mark = current.instanceId === instanceId ? '  <' : '';
      const branch = top ? '' : last ? '└── ' : '├── ';
      lines.push(
        `${prefix}${branch}${current.instanceId} (${current.orchestrationName}, ${current.status})${mark}`,
      );
      const childPrefix = top ? '' : `${prefix}${last ? '    ' : '│   '}`;
      current.children.forEach((child, index) =>
        draw(child, childPrefix, index === current.children.length - 1, false),
      );
    };
    draw(tree, '', true, true);
    context.io.stdout.write(`${lines.join('\n')}\n`);
  },
};

async function node(store: CliStore, instanceId: string): Promise<TreeNode> {
  const info = await store.management.getInstanceInfo(instanceId);
  const childIds = await store.admin.listChildren(instanceId);
  const children: TreeNode[] = [];
  for (const child of childIds.sort()) children.push(await node(store, child));
  return {
    instanceId,
    orchestrationName: info.orchestrationName,
    status: info.status,
    children,
  };
}
