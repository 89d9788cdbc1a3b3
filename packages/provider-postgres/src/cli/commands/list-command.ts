import type { ListedInstance } from '../../inspection/instance-page.js';
import { INSTANCE_STATUSES, isInstanceStatus } from '../../inspection/instance-statuses.js';
import { formatTime } from '../../inspection/time-text.js';
import { integerOption } from '../argument-parser.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { formatJson, formatTable } from '../terminal-output.js';
import { parseTimeArgument } from '../time-argument.js';

/** `duro list`: instances, newest first, filtered, one page at a time. */
export const listCommand: Command = {
  name: 'list',
  summary:
    'list instances, newest first (filter by status, name, version, id prefix, creation time)',
  usage:
    '[--status STATUS] [--name NAME] [--version V] [--id-prefix P] [--created-after TIME] [--created-before TIME] [--limit N] [--after CURSOR] [--json]',
  details: [
    `--status STATUS        one of ${INSTANCE_STATUSES.join(', ')}`,
    '--name NAME            only instances of this orchestration',
    '--version V            only instances of this orchestration version',
    '--id-prefix P          only instances whose id starts with P',
    '--created-after TIME   created at or after TIME: ISO 8601, or an age (30m, 12h, 7d)',
    '--created-before TIME  created before TIME',
    '--limit N              rows per page (default 50, at most 500)',
    '--after CURSOR         the page after the one that printed CURSOR',
  ],
  options: [
    { name: 'status', kind: 'value' },
    { name: 'name', kind: 'value' },
    { name: 'version', kind: 'value' },
    { name: 'id-prefix', kind: 'value' },
    { name: 'created-after', kind: 'value' },
    { name: 'created-before', kind: 'value' },
    { name: 'limit', kind: 'value' },
    { name: 'after', kind: 'value' },
  ],
  async run(context) {
    const values = context.args.values;
    const status = values.get('status');
    if (status !== undefined && !isInstanceStatus(status)) {
      throw CliError.usage(
        `--status must be one of ${INSTANCE_STATUSES.join(', ')}, got '${status}'`,
      );
    }
    const limit = integerOption(context.args, 'limit', 1) ?? 50;
    const nowMs = Date.now();
    const time = (option: string) => {
      const text = values.get(option);
      return text === undefined ? undefined : parseTimeArgument(option, text, nowMs);
    };
    const filter = {
      ...(status !== undefined ? { status } : {}),
      ...optional('orchestrationName', values.get('name')),
      ...optional('orchestrationVersion', values.get('version')),
      ...optional('idPrefix', values.get('id-prefix')),
      ...optional('createdFromMs', time('created-after')),
      ...optional('createdBeforeMs', time('created-before')),
      limit,
    };
    const store = await context.store();
    // A page read stops at its bound before the page is full when few instances match; the
    // command keeps reading until the page is full or nothing older matches.
    const instances: ListedInstance[] = [];
    let next: string | null = values.get('after') ?? null;
    do {
      const page = await store.inspector.listInstances({
        ...filter,
        limit: limit - instances.length,
        ...(next !== null ? { after: next } : {}),
      });
      instances.push(...page.instances);
      next = page.next;
    } while (next !== null && instances.length < limit);
    if (context.json) {
      context.io.stdout.write(formatJson({ instances, next }));
      return;
    }
    if (instances.length === 0) {
      context.io.stdout.write('no instances match\n');
      return;
    }
    context.io.stdout.write(
      formatTable(
        ['INSTANCE', 'ORCHESTRATION', 'VERSION', 'STATUS', 'EXECUTION', 'CREATED'],
        instances.map((row) => [
          row.instanceId,
          row.orchestrationName,
          row.orchestrationVersion,
          row.status,
          row.executionId,
          formatTime(row.createdAtMs),
        ]),
      ),
    );
    context.io.stdout.write(
      `${instances.length} instance(s)${next !== null ? `; next page: --after ${next}` : ''}\n`,
    );
  },
};

/** `{ [key]: value }`, or nothing when `value` is undefined (options are never set to undefined). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
