import type { SwarmConfig } from '../swarm-config.js';
import { SeededRandom } from './seeded-random.js';

/**
 * What one session is going to do, decided by the coordinator before the run and handed to the
 * session as part of its input, so the coordinator knows every instance the run must finish and
 * what each must report.
 */
export interface SessionPlan {
  /** The instance id. */
  readonly id: string;
  /** 0 for a root session, 1 for its children, 2 for theirs. */
  readonly depth: number;
  /** The session whose queue this one reports to, or `null` for a root. */
  readonly parent: string | null;
  /** Client messages a root receives before its `close` (0 for children). */
  readonly clientMessages: number;
  /** Updates a child sends its parent before its final one (0 for roots). */
  readonly updates: number;
  /** The child sessions this one starts, in order. */
  readonly children: readonly SessionPlan[];
}

/** The instance name every session and child runs. */
export const SESSION_ORCHESTRATION = 'SwarmSession';

/** The queue a session reads its client messages and child updates from. */
export const SESSION_QUEUE = 'messages';

/** The root session ids of a run: `session-0000`, `session-0001`, … */
export function rootSessionId(index: number): string {
  return `session-${String(index).padStart(4, '0')}`;
}

/** The plans of `count` root sessions and their descendants, from the run seed. */
export function planSessions(config: SwarmConfig, count: number): SessionPlan[] {
  const { workload } = config;
  return Array.from({ length: count }, (_, index) => {
    const id = rootSessionId(index);
    const random = new SeededRandom(config.seed, id);
    const [minMessages, maxMessages] = workload.messagesPerSession;
    const wide = random.chance(workload.wideSessionShare);
    return {
      id,
      depth: 0,
      parent: null,
      clientMessages: random.between(minMessages, maxMessages),
      updates: 0,
      children: planChildren(config, id, 1, wide ? workload.manyChildren : undefined),
    };
  });
}

function planChildren(
  config: SwarmConfig,
  parent: string,
  depth: number,
  fixedCount: number | undefined,
): SessionPlan[] {
  const { workload } = config;
  if (depth > workload.maxDepth) return [];
  const random = new SeededRandom(config.seed, parent, 'children');
  const [minChildren, maxChildren] = workload.childrenPerSession;
  const count = fixedCount ?? random.between(minChildren, maxChildren);
  const [minUpdates, maxUpdates] = workload.updatesPerChild;
  return Array.from({ length: count }, (_, index) => {
    const id = `${parent}.c${index}`;
    return {
      id,
      depth,
      parent,
      clientMessages: 0,
      updates: random.between(minUpdates, maxUpdates),
      children: planChildren(config, id, depth + 1, undefined),
    };
  });
}

/** Every plan of a tree, parents before their children. */
export function flattenPlans(roots: readonly SessionPlan[]): SessionPlan[] {
  const all: SessionPlan[] = [];
  const visit = (plan: SessionPlan): void => {
    all.push(plan);
    plan.children.forEach(visit);
  };
  roots.forEach(visit);
  return all;
}
