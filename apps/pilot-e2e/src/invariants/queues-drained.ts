import { invariantResult, type InvariantResult } from './invariant-result.js';

/** What is left in one schema's queues once the swarm has settled. */
export interface QueueLeftovers {
  readonly schema: string;
  /** `getQueueDepths()`: visible, unlocked messages. */
  readonly orchestratorDepth: number;
  readonly workerDepth: number;
  /** Every row, future timers and locked rows included. */
  readonly orchestratorRows: number;
  readonly workerRows: number;
}

/** Every queue of every schema drained to zero, by the provider's count and by the rows left. */
export function checkQueuesDrained(leftovers: readonly QueueLeftovers[]): InvariantResult {
  const violations: string[] = [];
  for (const left of leftovers) {
    const counts = {
      'orchestrator queue depth': left.orchestratorDepth,
      'worker queue depth': left.workerDepth,
      'orchestrator queue rows': left.orchestratorRows,
      'worker queue rows': left.workerRows,
    };
    for (const [what, count] of Object.entries(counts)) {
      if (count !== 0) violations.push(`${left.schema}: ${what} is ${count}`);
    }
  }
  if (leftovers.length === 0) violations.push('no schema was checked: there was nothing to judge');
  const figures: Record<string, number> = {};
  for (const left of leftovers) {
    figures[`${left.schema}.orchestratorRows`] = left.orchestratorRows;
    figures[`${left.schema}.workerRows`] = left.workerRows;
  }
  return invariantResult(
    'queues-drained',
    `${leftovers.length} schema(s) checked for leftover queue rows`,
    figures,
    violations,
  );
}
