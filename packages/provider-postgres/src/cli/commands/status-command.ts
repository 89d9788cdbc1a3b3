import type { Command } from '../command.js';
import { requireInstance } from '../instance-lookup.js';
import { requiredPositional } from '../required-positional.js';
import { formatTime } from '../../inspection/time-text.js';
import { formatFields, formatJson } from '../terminal-output.js';

/** `duro status INSTANCE`: the instance's current execution, output or error, custom status. */
export const statusCommand: Command = {
  name: 'status',
  summary: "show an instance's status, output or error, and custom status",
  usage: 'INSTANCE [--json]',
  details: [],
  options: [],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const store = await context.store();
    const info = await requireInstance(store, instanceId);
    const status = await store.client.getStatus(instanceId);
    if (context.json) {
      context.io.stdout.write(formatJson({ ...status, ...info }));
      return;
    }
    context.io.stdout.write(
      formatFields([
        ['instance', info.instanceId],
        ['orchestration', `${info.orchestrationName} ${info.orchestrationVersion}`],
        ['status', info.status],
        ['execution', info.currentExecutionId],
        ['parent', info.parentInstanceId],
        ['created', formatTime(info.createdAt)],
        ['updated', formatTime(info.updatedAt)],
        ...(status.status === 'Failed' ? [['error', status.error ?? null] as const] : []),
        ...(info.output !== null && status.status !== 'Failed'
          ? [['output', JSON.stringify(info.output)] as const]
          : []),
        ...(status.customStatus !== undefined
          ? [
              [
                'custom status',
                `${status.customStatus} (version ${status.customStatusVersion})`,
              ] as const,
            ]
          : []),
      ]),
    );
  },
};
