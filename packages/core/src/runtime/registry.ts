import { compareSemver, formatSemver, parseSemver, type SemverVersion } from '../model/semver.js';
import type { ActivityContext } from './activity-context.js';
import type { OrchestrationFunction } from './replay/replay-engine.js';
import { SYSCALL_PREFIX } from './replay/task-builder.js';

/** An activity body: receives its context and the input parsed as JSON, returns the result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the input is parsed JSON
export type ActivityFunction<In = any, Out = unknown> = (
  ctx: ActivityContext,
  input: In,
) => Promise<Out> | Out;

/** The version `registerOrchestration` registers. */
export const DEFAULT_VERSION = '1.0.0';

interface VersionedHandler {
  readonly version: SemverVersion;
  readonly handler: OrchestrationFunction;
}

/**
 * The orchestrations a runtime can run, by name and version (duroxide's
 * `OrchestrationRegistry`). New instances get the latest version; running executions stay on
 * the version in their `OrchestrationStarted` until they continue-as-new.
 * @internal
 */
export class OrchestrationRegistry {
  private readonly byName = new Map<string, VersionedHandler[]>();

  /**
   * @throws {Error} when `name@version` is already registered, or `version` is not later than
   *   the latest registered version of `name` (duroxide requires increasing versions).
   * @throws {TypeError} when `version` is not semver.
   */
  register(name: string, version: string, handler: OrchestrationFunction): void {
    if (typeof handler !== 'function') {
      throw new TypeError(`orchestration ${name}@${version} must be a generator function`);
    }
    const parsed = parseSemver(version);
    const versions = this.byName.get(name) ?? [];
    if (versions.some((entry) => compareSemver(entry.version, parsed) === 0)) {
      throw new Error(`duplicate orchestration registration: ${name}@${formatSemver(parsed)}`);
    }
    const latest = versions[versions.length - 1];
    if (latest && compareSemver(parsed, latest.version) < 0) {
      throw new Error(
        `non-monotonic orchestration version for ${name}: ${formatSemver(parsed)} is not later than existing latest ${formatSemver(latest.version)}`,
      );
    }
    versions.push({ version: parsed, handler });
    this.byName.set(name, versions);
  }

  /** The latest version of `name`. */
  resolveLatest(name: string): { version: string; handler: OrchestrationFunction } | null {
    const versions = this.byName.get(name);
    const latest = versions?.[versions.length - 1];
    return latest ? { version: formatSemver(latest.version), handler: latest.handler } : null;
  }

  /** Exactly `version` of `name`; `null` when not registered or not semver. */
  resolveExact(
    name: string,
    version: string,
  ): { version: string; handler: OrchestrationFunction } | null {
    let parsed: SemverVersion;
    try {
      parsed = parseSemver(version);
    } catch {
      return null;
    }
    const entry = this.byName
      .get(name)
      ?.find((candidate) => compareSemver(candidate.version, parsed) === 0);
    return entry ? { version: formatSemver(entry.version), handler: entry.handler } : null;
  }
}

/**
 * The activities a runtime's workers run, by name (duroxide's `ActivityRegistry`).
 * @internal
 */
export class ActivityRegistry {
  private readonly byName = new Map<string, ActivityFunction>();

  /**
   * @throws {Error} when the name is taken or uses the reserved `__duroxide_syscall:` prefix.
   */
  register(name: string, handler: ActivityFunction): void {
    if (name.startsWith(SYSCALL_PREFIX)) {
      throw new Error(`activity name '${name}' uses reserved prefix '${SYSCALL_PREFIX}'`);
    }
    if (typeof handler !== 'function') throw new TypeError(`activity ${name} must be a function`);
    if (this.byName.has(name))
      throw new Error(`duplicate activity registration: ${name}@${DEFAULT_VERSION}`);
    this.byName.set(name, handler);
  }

  resolve(name: string): ActivityFunction | null {
    return this.byName.get(name) ?? null;
  }
}
