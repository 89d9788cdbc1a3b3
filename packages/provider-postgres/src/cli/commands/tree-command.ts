import type { InstanceTreeNode } from '../../inspection/instance-tree.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { requiredPositional } from '../required-positional.js';
import { formatJson } from '../terminal-output.js';

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
    const tree = await store.inspector.readInstanceTree(instanceId);
    if (tree === null) throw CliError.notFound(instanceId);
    if (context.json) {
      context.io.stdout.write(formatJson(tree.root));
      return;
    }
    const lines: string[] = [];
    const draw = (current: InstanceTreeNode, prefix: string, last: boolean, top: boolean): void => {
      const mark = current.instanceId === instanceId ? '  <' : '';
      const branch = top ? '' : last ? '└── ' : '├── ';
      lines.push(
        `${prefix}${branch}${current.instanceId} (${current.orchestrationName}, ${current.status ?? '-'})${mark}`,
      );
      const childPrefix = top ? '' : `${prefix}${last ? '    ' : '│   '}`;
      current.children.forEach((child, index) =>
        draw(child, childPrefix, index === current.children.length - 1, false),
      );
    };
    draw(tree.root, '', true, true);
    if (tree.truncated) lines.push('... (more instances not shown)');
    context.io.stdout.write(`${lines.join('\n')}\n`);
  },
};
