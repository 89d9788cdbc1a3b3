import type { Command } from '../command.js';
import { jsonArgument, requireInstance } from '../instance-lookup.js';
import { requiredPositional } from '../required-positional.js';

/** `duro raise INSTANCE EVENT [DATA]`: raises an external event. */
export const raiseCommand: Command = {
  name: 'raise',
  summary: 'raise an external event on an instance',
  usage: 'INSTANCE EVENT [DATA_JSON]',
  details: ['DATA_JSON   the event data as JSON (default null); quote strings: \'"text"\''],
  options: [],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const event = requiredPositional(context.args, 1, 'EVENT');
    const data = jsonArgument(context.args.positionals[2], 'DATA_JSON');
    const store = await context.store();
    await requireInstance(store, instanceId);
    await store.client.raiseEvent(instanceId, event, data);
    context.io.stdout.write(`raised '${event}' on ${instanceId}\n`);
  },
};

/** `duro enqueue INSTANCE QUEUE [DATA]`: puts a message on an instance's named queue. */
export const enqueueCommand: Command = {
  name: 'enqueue',
  summary: "put a message on an instance's queue",
  usage: 'INSTANCE QUEUE [DATA_JSON]',
  details: ['DATA_JSON   the message as JSON (default null); quote strings: \'"text"\''],
  options: [],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const queue = requiredPositional(context.args, 1, 'QUEUE');
    const data = jsonArgument(context.args.positionals[2], 'DATA_JSON');
    const store = await context.store();
    await requireInstance(store, instanceId);
    await store.client.enqueueEvent(instanceId, queue, data);
    context.io.stdout.write(`enqueued on ${instanceId} queue '${queue}'\n`);
  },
};

/** `duro cancel INSTANCE`: asks an instance (and its children) to end as cancelled. */
export const cancelCommand: Command = {
  name: 'cancel',
  summary: 'cancel an instance and its sub-orchestrations',
  usage: 'INSTANCE [--reason TEXT]',
  details: ['--reason TEXT   recorded in the failure (default empty)'],
  options: [{ name: 'reason', kind: 'value' }],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const store = await context.store();
    const info = await requireInstance(store, instanceId);
    if (info.status !== 'Running') {
      context.io.stdout.write(`${instanceId} is ${info.status}; nothing to cancel\n`);
      return;
    }
    await store.client.cancelInstance(instanceId, context.args.values.get('reason') ?? '');
    context.io.stdout.write(`cancellation requested for ${instanceId}\n`);
  },
};
