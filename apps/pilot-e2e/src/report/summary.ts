import type { RunReport } from './run-report.js';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The final report as text for a terminal or a log. */
export function formatSummary(report: RunReport): string {
  const lines: string[] = [];
  const { sessions, throughput, fleet, clients, leases } = report;
  lines.push(
    `pilot-e2e ${report.preset}: ${report.passed ? 'PASSED' : 'FAILED'} in ${seconds(report.durationMs)}`,
    `database    PostgreSQL ${report.database.serverVersion} (${report.database.route}, ${report.database.durability}), schemas ${report.schemas.join(', ')}`,
    `workload    ${sessions.roots} root sessions, ${sessions.instances} instances, ${sessions.completed} completed in ${seconds(report.workloadMs)}`,
    `clients     ${clients.messagesSent} messages in ${clients.bursts} bursts (${clients.continueAsNewBursts} timed to continue-as-new)`,
    `throughput  ${throughput.orchestrationTurnsPerSecond.toFixed(1)} turns/s, ${throughput.activitiesPerSecond.toFixed(1)} activities/s, ${throughput.messagesPerSecond.toFixed(1)} messages/s, ${throughput.instancesCompletedPerSecond.toFixed(2)} instances/s`,
    `fleet       ${fleet.workers} workers, ${fleet.restarts} restarts, ${fleet.unexpectedExits} unexpected exits, ${fleet.metrics?.orchContinueAsNew ?? 0} continue-as-new`,
    `leases      ${leases.orchestrator.fetches} orchestration / ${leases.worker.fetches} activity fetches, least left (frozen workers included) ${leases.orchestrator.minRemainingMs ?? '-'} / ${leases.worker.minRemainingMs ?? '-'} ms, longest wait for work ${leases.orchestrator.fetchMsMax} / ${leases.worker.fetchMsMax} ms`,
  );
  for (const [engine, totals] of Object.entries(fleet.engines)) {
    lines.push(
      `${`${engine} workers`.padEnd(11)} ${totals.workers}: ${totals.orchestrationTurns} turns, ${totals.activities} activities, ${totals.continueAsNew} continue-as-new, ${totals.instances} instances`,
    );
  }
  if (fleet.engines.rust !== undefined) {
    lines.push(`shared      ${fleet.sharedInstances} instances fetched by both runtimes`);
  }
  const { planned, injected } = report.faults;
  const kinds = Object.entries(injected);
  const total = kinds.reduce((sum, [, count]) => sum + count, 0);
  lines.push(
    `faults      ${total} of ${planned} planned injected${
      kinds.length === 0 ? '' : `: ${kinds.map(([kind, count]) => `${kind} ${count}`).join(', ')}`
    }`,
  );
  lines.push('invariants');
  for (const result of report.invariants) {
    lines.push(`  ${result.passed ? 'pass' : 'FAIL'}  ${result.name}: ${result.summary}`);
    for (const violation of result.violations) lines.push(`          - ${violation}`);
    if (result.violationCount > result.violations.length) {
      lines.push(`          - … ${result.violationCount - result.violations.length} more`);
    }
  }
  lines.push(
    `logs        ${report.logDir}${report.keptSchemas ? ' (schemas kept for inspection)' : ''}`,
  );
  return lines.join('\n');
}
