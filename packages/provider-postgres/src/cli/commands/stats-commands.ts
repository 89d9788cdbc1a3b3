import type { Command } from '../command.js';
import { formatFields, formatJson } from '../terminal-output.js';

/** `duro stats`: instance, execution and event counts, and the queue depths. */
export const statsCommand: Command = {
  name: 'stats',
  summary: 'count instances by status, executions and events, with the queue depths',
  usage: '[--json]',
  details: [],
  options: [],
  async run(context) {
    const store = await context.store();
    const metrics = await store.management.getSystemMetrics();
    const depths = await store.management.getQueueDepths();
    if (context.json) {
      context.io.stdout.write(formatJson({ ...metrics, queues: depths }));
      return;
    }
    context.io.stdout.write(
      formatFields([
        ['schema', store.schemaName],
        ['instances', metrics.totalInstances],
        ['  running', metrics.runningInstances],
        ['  completed', metrics.completedInstances],
        ['  failed', metrics.failedInstances],
        ['executions', metrics.totalExecutions],
        ['events', metrics.totalEvents],
        ['orchestrator queue', depths.orchestratorQueue],
        ['worker queue', depths.workerQueue],
      ]),
    );
  },
};

/** `duro queue-depths`: visible, unlocked messages per queue. */
export const queueDepthsCommand: Command = {
  name: 'queue-depths',
  summary: 'show the visible, unlocked messages waiting in each queue',
  usage: '[--json]',
  details: [],
  options: [],
  async run(context) {
    const store = await context.store();
    const depths = await store.management.getQueueDepths();
    if (context.json) {
      context.io.stdout.write(formatJson(depths));
      return;
    }
    context.io.stdout.write(
      formatFields([
        ['orchestrator queue', depths.orchestratorQueue],
        ['worker queue', depths.workerQueue],
      ]),
    );
  },
};
