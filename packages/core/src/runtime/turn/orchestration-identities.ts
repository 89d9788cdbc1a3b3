import type { Provider } from '../../provider/provider.js';

/** The orchestration an activity belongs to, as its `ActivityContext` reports it. @internal */
export interface OrchestrationIdentity {
  readonly name: string;
  readonly version: string;
}

/** Executions whose identity a worker remembers; the oldest are forgotten first. */
const MAX_REMEMBERED = 1_000;

const UNKNOWN: OrchestrationIdentity = { name: 'unknown', version: 'unknown' };

const identityKey = (instance: string, executionId: number): string => `${executionId}:${instance}`;

/**
 * Finds the orchestration name and version for activities, as duroxide's worker does: from the
 * last `OrchestrationStarted` of the instance's history. An execution's start never changes,
 * so the answer is remembered per instance and execution, and the activities of one fan-out
 * share a single history read instead of one each; an execution whose turn this runtime ran is
 * known without any read. A failed read answers "unknown" (the names
 * are informational) and is not remembered.
 * @internal
 */
export class OrchestrationIdentities {
  private readonly known = new Map<string, Promise<OrchestrationIdentity>>();

  constructor(private readonly provider: Provider) {}

  of(instance: string, executionId: number): Promise<OrchestrationIdentity> {
    const key = identityKey(instance, executionId);
    const remembered = this.known.get(key);
    if (remembered !== undefined) return remembered;
    const lookup = this.read(instance).catch(() => {
      this.known.delete(key);
      return UNKNOWN;
    });
    this.keep(key, lookup);
    return lookup;
  }

  /** Notes the identity of an execution whose turn this runtime ran, so its activities need no read. */
  remember(instance: string, executionId: number, identity: OrchestrationIdentity): void {
    this.keep(identityKey(instance, executionId), Promise.resolve(identity));
  }

  private keep(key: string, identity: Promise<OrchestrationIdentity>): void {
    this.known.delete(key);
    this.known.set(key, identity);
    if (this.known.size > MAX_REMEMBERED) {
      const oldest = this.known.keys().next();
      if (oldest.done !== true) this.known.delete(oldest.value);
    }
  }

  private async read(instance: string): Promise<OrchestrationIdentity> {
    const history = await this.provider.read(instance);
    for (let index = history.length - 1; index >= 0; index -= 1) {
      const kind = history[index]?.kind;
      if (kind?.type === 'OrchestrationStarted') return { name: kind.name, version: kind.version };
    }
    return UNKNOWN;
  }
}
