import { integerOption } from '../argument-parser.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { formatJson, formatTable, formatTime } from '../terminal-output.js';

const STATUSES = ['Running', 'Completed', 'Failed', 'ContinuedAsNew'];

interface ListedRow {
  instance_id: string;
  orchestration_name: string;
  orchestration_version: string | null;
  status: string;
  current_execution_id: string;
  created_ms: string;
  total: string;
}

/** `duro list`: instances, newest first, filtered by status and name, one page at a time. */
export const listCommand: Command = {
  name: 'list',
  summary: 'list instances, newest first (filter by status or name, page with --limit/--offset)',
  usage: '[--status STATUS] [--name ORCHESTRATION] [--limit N] [--offset N] [--json]',
  details: [
    `--status STATUS     one of ${STATUSES.join(', ')}`,
    '--name NAME         only instances of this orchestration',
    '--limit N           rows per page (default 50)',
    '--offset N          rows to skip (default 0)',
  ],
  options: [
    { name: 'status', kind: 'value' },
    { name: 'name', kind: 'value' },
    { name: 'limit', kind: 'value' },
    { name: 'offset', kind: 'value' },
  ],
  async run(context) {
    const status = context.args.values.get('status') ?? null;
    if (status !== null && !STATUSES.includes(status)) {
      throw CliError.usage(`--status must be one of ${STATUSES.join(', ')}, got '${status}'`);
    }
    const name = context.args.values.get('name') ?? null;
    const limit = integerOption(context.args, 'limit', 1) ?? 50;
    const offset = integerOption(context.args, 'offset', 0) ?? 0;
    const store = await context.store();
    const { rows } = await store.pool.query<ListedRow>(
      `SELECT i.instance_id, i.orchestration_name, i.orchestration_version, e.status,
              i.current_execution_id,
              (EXTRACT(EPOCH FROM i.created_at) * 1000)::bigint AS created_ms,
              COUNT(*) OVER () AS total
         FROM ${store.schemaSql}.instances i
         JOIN ${store.schemaSql}.executions e
           ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
        WHERE ($1::text IS NULL OR e.status = $1) AND ($2::text IS NULL OR i.orchestration_name = $2)
        ORDER BY i.created_at DESC, i.instance_id
        LIMIT $3 OFFSET $4`,
      [status, name, limit, offset],
    );
    const total =
      rows.length > 0 ? Number(rows[0]?.total) : await countMatching(context, status, name);
    const instances = rows.map((row) => ({
      instanceId: row.instance_id,
      orchestrationName: row.orchestration_name,
      orchestrationVersion: row.orchestration_version,
      status: row.status,
      executionId: Number(row.current_execution_id),
      createdAt: Number(row.created_ms),
    }));
    if (context.json) {
      context.io.stdout.write(formatJson({ total, offset, limit, instances }));
      return;
    }
    if (instances.length === 0) {
      context.io.stdout.write(`no instances (of ${total} matching)\n`);
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
          formatTime(row.createdAt),
        ]),
      ),
    );
    const shown = offset + instances.length;
    context.io.stdout.write(
      `showing ${offset + 1}-${shown} of ${total}${shown < total ? `; next page: --offset ${shown}` : ''}\n`,
    );
  },
};

async function countMatching(
  context: Parameters<Command['run']>[0],
  status: string | null,
  name: string | null,
): Promise<number> {
  const store = await context.store();
  const { rows } = await store.pool.query<{ total: string }>(
    `SELECT COUNT(*) AS total
       FROM ${store.schemaSql}.instances i
       JOIN ${store.schemaSql}.executions e
         ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
      WHERE ($1::text IS NULL OR e.status = $1) AND ($2::text IS NULL OR i.orchestration_name = $2)`,
    [status, name],
  );
  return Number(rows[0]?.total ?? 0);
}
