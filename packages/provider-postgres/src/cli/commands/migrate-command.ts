import { DUROXIDE_MIGRATIONS, DURO_MIGRATIONS } from '../../migrations/migrations.generated.js';
import { readLedger } from '../../migrations/migration-ledger.js';
import { runMigrations } from '../../migrations/migration-runner.js';
import { renderMigrationSql } from '../../migrations/render-migration-sql.js';
import { schemaNames } from '../../migrations/schema-sql.js';
import { integerOption } from '../argument-parser.js';
import type { Command, CommandContext } from '../command.js';
import { openPool } from '../store-connection.js';
import { formatDuration } from '../../inspection/time-text.js';
import { formatJson } from '../terminal-output.js';

interface PendingFile {
  readonly track: 'duroxide' | 'duro';
  readonly version: number;
  readonly name: string;
}

/** `duro migrate`: applies the schema's missing migrations, or shows them. */
export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'apply the missing migrations to a schema (or show them)',
  usage: '[--target VERSION] [--dry-run] [--print-sql] [--no-extensions]',
  details: [
    '--target VERSION   last duroxide-track version to apply (for fleets on older duroxide-pg)',
    '--dry-run          list the files that would be applied, change nothing',
    '--print-sql        print the SQL of the missing duroxide-track files (psql script), change nothing',
    '--no-extensions    skip the duro extension track (wake-up notifications)',
  ],
  options: [
    { name: 'target', kind: 'value' },
    { name: 'dry-run', kind: 'flag' },
    { name: 'print-sql', kind: 'flag' },
    { name: 'no-extensions', kind: 'flag' },
  ],
  async run(context) {
    const targetVersion = integerOption(context.args, 'target', 1);
    const extensions = !context.args.flags.has('no-extensions');
    const names = schemaNames(context.schema);
    const pool = await openPool(await context.connection());
    try {
      if (context.args.flags.has('dry-run') || context.args.flags.has('print-sql')) {
        const client = await pool.connect();
        let pending: PendingFile[];
        try {
          const duroxide = (await readLedger(client, names, 'duroxide')) ?? [];
          const duro = (await readLedger(client, names, 'duro')) ?? [];
          pending = pendingFiles(duroxide, duro, targetVersion, extensions);
        } finally {
          client.release();
        }
        if (context.args.flags.has('print-sql')) printSql(context, pending, extensions);
        else printPending(context, pending);
        return;
      }
      const { io } = context;
      const report = await runMigrations(pool, {
        schema: context.schema,
        extensions,
        ...(targetVersion !== undefined ? { targetVersion } : {}),
        onProgress: (step) => {
          if (context.json) return;
          if (step.phase === 'applying')
            io.stderr.write(`applying ${step.track} ${step.name} ... `);
          else io.stderr.write(`done (${formatDuration(step.elapsedMs ?? 0)})\n`);
        },
      });
      if (context.json) {
        io.stdout.write(formatJson(report));
        return;
      }
      io.stdout.write(
        `${report.applied.length === 0 ? 'schema is up to date' : `applied ${report.applied.length} migration(s)`}: ` +
          `schema '${report.schema}' at duroxide migration ${report.duroxideVersion}, duro extensions ${report.duroVersion}\n`,
      );
    } finally {
      await pool.end();
    }
  },
};

function pendingFiles(
  duroxide: readonly number[],
  duro: readonly number[],
  targetVersion: number | undefined,
  extensions: boolean,
): PendingFile[] {
  const target = targetVersion ?? Math.max(...DUROXIDE_MIGRATIONS.map((file) => file.version));
  const missing =
    (applied: readonly number[], track: PendingFile['track']) =>
    (file: { version: number; name: string }): PendingFile[] =>
      applied.includes(file.version) ? [] : [{ track, version: file.version, name: file.name }];
  return [
    ...DUROXIDE_MIGRATIONS.filter((file) => file.version <= target).flatMap(
      missing(duroxide, 'duroxide'),
    ),
    ...(extensions ? DURO_MIGRATIONS.flatMap(missing(duro, 'duro')) : []),
  ];
}

function printPending(context: CommandContext, pending: readonly PendingFile[]): void {
  if (context.json) {
    context.io.stdout.write(formatJson({ schema: context.schema, pending }));
    return;
  }
  if (pending.length === 0) {
    context.io.stdout.write(`schema '${context.schema}' is up to date; nothing would be applied\n`);
    return;
  }
  context.io.stdout.write(
    `would apply ${pending.length} migration(s) to schema '${context.schema}':\n`,
  );
  for (const file of pending) context.io.stdout.write(`  ${file.track} ${file.name}\n`);
}

function printSql(
  context: CommandContext,
  pending: readonly PendingFile[],
  extensions: boolean,
): void {
  const duroxide = pending.filter((file) => file.track === 'duroxide').map((file) => file.version);
  const first = duroxide[0];
  const last = duroxide.at(-1);
  if (first === undefined || last === undefined) {
    context.io.stdout.write(
      `-- schema '${context.schema}': no duroxide-track migration is missing\n`,
    );
    return;
  }
  context.io.stdout.write(renderMigrationSql(context.schema, first, last, { extensions }));
}
