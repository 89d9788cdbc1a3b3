import type { HistoryEvent } from '@duro/core';
import { integerOption } from '../argument-parser.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { requireInstance } from '../instance-lookup.js';
import { requiredPositional } from '../required-positional.js';
import { formatTime } from '../../inspection/time-text.js';
import { formatJson, formatTable } from '../terminal-output.js';

/** Longest event detail printed on a terminal line; `--json` has them whole. */
const DETAIL_WIDTH = 100;

/** `duro history INSTANCE`: the events of one execution (the current one by default). */
export const historyCommand: Command = {
  name: 'history',
  summary: "print an execution's history (readable, or --json)",
  usage: 'INSTANCE [--execution N] [--json]',
  details: ['--execution N   the execution to print (default: the current one)'],
  options: [{ name: 'execution', kind: 'value' }],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const store = await context.store();
    const info = await requireInstance(store, instanceId);
    const executionId = integerOption(context.args, 'execution', 1) ?? info.currentExecutionId;
    const executions = await store.management.listExecutions(instanceId);
    if (!executions.includes(executionId)) {
      throw CliError.usage(
        `instance '${instanceId}' has no execution ${executionId} (it has ${executions.join(', ')})`,
      );
    }
    const events = await store.management.readExecutionHistory(instanceId, executionId);
    if (context.json) {
      context.io.stdout.write(
        formatJson(events.map(({ event, ...summary }) => ({ ...summary, event }))),
      );
      return;
    }
    context.io.stdout.write(
      `${instanceId} execution ${executionId} of ${executions.length}, ${events.length} events\n`,
    );
    context.io.stdout.write(
      formatTable(
        ['ID', 'TIME', 'EVENT', 'SOURCE', 'DETAILS'],
        events.map((event) => [
          event.eventId,
          formatTime(event.timestampMs),
          event.kind,
          event.sourceEventId ?? null,
          detail(event),
        ]),
      ),
    );
  },
};

function detail(event: HistoryEvent): string {
  const text = event.data ?? '';
  return text.length > DETAIL_WIDTH ? `${text.slice(0, DETAIL_WIDTH - 3)}...` : text;
}
