import { DUROXIDE_VERSION } from '@duro/core';
import { integerOption } from '../argument-parser.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { requiredPositional } from '../required-positional.js';
import { formatJson } from '../terminal-output.js';
import { DEFAULT_FLEET_ASSUMPTIONS, explainDiagnosis } from '../../inspection/explain-diagnosis.js';

const MARK = { blocking: '!', waiting: '~', info: '-' } as const;

/** `duro why INSTANCE`: explains what keeps an instance from running right now. */
export const whyCommand: Command = {
  name: 'why',
  summary:
    'explain why an instance is not running: locks, queued messages, attempts, sessions, versions, tags',
  usage:
    'INSTANCE [--max-attempts N] [--replay-max-version X.Y.Z] [--idle-worker-after SECONDS] [--json]',
  details: [
    "--max-attempts N             the runtimes' maxAttempts (default 10)",
    `--replay-max-version X.Y.Z   newest duroxide version the runtimes replay (default ${DUROXIDE_VERSION})`,
    '--idle-worker-after SECONDS  when a ready activity counts as unserved (default 60)',
  ],
  options: [
    { name: 'max-attempts', kind: 'value' },
    { name: 'replay-max-version', kind: 'value' },
    { name: 'idle-worker-after', kind: 'value' },
  ],
  async run(context) {
    const instanceId = requiredPositional(context.args, 0, 'INSTANCE');
    const replayMaxVersion =
      context.args.values.get('replay-max-version') ?? DEFAULT_FLEET_ASSUMPTIONS.replayMaxVersion;
    if (!/^\d+\.\d+\.\d+$/.test(replayMaxVersion)) {
      throw CliError.usage(`--replay-max-version must look like 0.1.32, got '${replayMaxVersion}'`);
    }
    const fleet = {
      maxAttempts:
        integerOption(context.args, 'max-attempts', 1) ?? DEFAULT_FLEET_ASSUMPTIONS.maxAttempts,
      replayMaxVersion,
      idleWorkerThresholdMs:
        (integerOption(context.args, 'idle-worker-after', 0) ??
          DEFAULT_FLEET_ASSUMPTIONS.idleWorkerThresholdMs / 1_000) * 1_000,
    };
    const store = await context.store();
    const diagnosis = await store.inspector.readInstanceDiagnosis(instanceId);
    if (diagnosis.instance === null && diagnosis.orchestratorMessages.length === 0) {
      throw CliError.notFound(instanceId);
    }
    const nowMs = Date.now();
    const explanation = explainDiagnosis(diagnosis, fleet, nowMs);
    if (context.json) {
      context.io.stdout.write(formatJson({ nowMs, ...explanation, diagnosis }));
      return;
    }
    const lines = [`${instanceId}: ${explanation.verdict}`];
    for (const finding of explanation.findings)
      lines.push(`  ${MARK[finding.severity]} ${finding.text}`);
    context.io.stdout.write(`${lines.join('\n')}\n`);
  },
};
