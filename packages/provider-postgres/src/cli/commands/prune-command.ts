import type { PruneOptions } from '@duro/core';
import { integerOption } from '../argument-parser.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { requireInstance } from '../instance-lookup.js';
import { ProgressBar } from '../progress-bar.js';
import { parseTimeArgument } from '../time-argument.js';
import { formatFields, formatJson } from '../terminal-output.js';

/** `duro prune`: deletes old executions (never the current one) of some or all instances. */
export const pruneCommand: Command = {
  name: 'prune',
  summary: 'delete old executions of instances (never the current one), with a progress bar',
  usage: '[INSTANCE...] (--keep-last N | --completed-before TIME) [--json]',
  details: [
    '--keep-last N            keep the N newest executions of each instance',
    '--completed-before TIME  only executions that ended before TIME: ISO 8601, or an age (30m, 12h, 7d)',
    'INSTANCE...              the instances to prune (default: every instance)',
  ],
  options: [
    { name: 'keep-last', kind: 'value' },
    { name: 'completed-before', kind: 'value' },
  ],
  async run(context) {
    const keepLast = integerOption(context.args, 'keep-last', 1);
    const before = context.args.values.get('completed-before');
    if (keepLast === undefined && before === undefined) {
      throw CliError.usage('say what to prune: --keep-last N, --completed-before TIME, or both');
    }
    const options: PruneOptions = {
      ...(keepLast !== undefined ? { keepLast } : {}),
      ...(before !== undefined
        ? { completedBefore: parseTimeArgument('completed-before', before, Date.now()) }
        : {}),
    };
    const store = await context.store();
    const named = context.args.positionals;
    for (const instanceId of named) await requireInstance(store, instanceId);
    const targets = named.length > 0 ? [...named] : await store.management.listAllInstances();
    const bar = context.json ? null : new ProgressBar(context.io, targets.length, 'instances');
    const total = { instancesProcessed: 0, executionsDeleted: 0, eventsDeleted: 0 };
    for (const instanceId of targets) {
      const result = await store.management.pruneExecutions(instanceId, options);
      total.instancesProcessed += result.instancesProcessed;
      total.executionsDeleted += result.executionsDeleted;
      total.eventsDeleted += result.eventsDeleted;
      bar?.advance();
    }
    bar?.done();
    if (context.json) {
      context.io.stdout.write(formatJson(total));
      return;
    }
    context.io.stdout.write(
      formatFields([
        ['instances', total.instancesProcessed],
        ['executions deleted', total.executionsDeleted],
        ['events deleted', total.eventsDeleted],
      ]),
    );
  },
};
