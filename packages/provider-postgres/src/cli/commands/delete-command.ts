import type { Command } from '../command.js';
import { requireInstance } from '../instance-lookup.js';
import { requiredPositional } from '../required-positional.js';
import { formatFields, formatJson } from '../terminal-output.js';

/** `duro delete INSTANCE`: deletes a root instance with its sub-orchestrations. */
export const deleteCommand: Command = {
  name: 'delete',
  summary: 'delete a root instance and its sub-orchestrations',
  usage: 'INSTANCE [--force] [--json]',
  details: ['--force   delete even when still running'],
  options: [{ name: 'force', kind: 'flag' }],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const store = await context.store();
    await requireInstance(store, instanceId);
    const result = await store.management.deleteInstance(
      instanceId,
      context.args.flags.has('force'),
    );
    if (context.json) {
      context.io.stdout.write(formatJson(result));
      return;
    }
    context.io.stdout.write(
      formatFields([
        ['deleted instances', result.instancesDeleted],
        ['executions', result.executionsDeleted],
        ['events', result.eventsDeleted],
        ['queue messages', result.queueMessagesDeleted],
      ]),
    );
  },
};
