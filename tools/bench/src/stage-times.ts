import type { Provider, WorkItem } from '@duro/core';
import { withOverrides } from './with-overrides.js';

/** A point in an instance's life that the bench sees in the provider calls of its runtime. */
export type Stage =
  | 'start sent'
  | 'start committed'
  | 'turn fetched'
  | 'turn commit sent'
  | 'turn committed'
  | 'activities fetched'
  | 'completions sent'
  | 'completions committed';

/** The time measured instances spent going from one stage to the next. */
export interface StageStep {
  readonly from: Stage;
  readonly to: Stage;
  /** Total time of the step per instance (all the times it was taken), ms. */
  readonly msPerInstance: number;
  /** Times per instance the step was taken. */
  readonly timesPerInstance: number;
}

/** What the bench reads of a fetched turn or activity. */
interface Fetched {
  readonly lockToken: string;
  readonly item: { readonly instance: string } | WorkItem;
}

/** An instance reaching a stage, at an epoch ms that every process of the bench shares. */
export interface StageMark {
  readonly stage: Stage;
  readonly atMs: number;
}

/** Now, as ms since the Unix epoch with the precision of `performance.now()`. */
export const epochNowMs = (): number => performance.timeOrigin + performance.now();

/**
 * Times the stages of every instance a runtime serves (`--stages`): when its start is sent and
 * committed, and when each of its turns and activities is fetched and each commit is sent and
 * committed, as seen around the provider's calls. The steps between consecutive stages show where
 * the time from start to completion goes.
 */
export class StageTimes {
  readonly #marks = new Map<string, StageMark[]>();

  /** Notes that `instance` reached `stage` now (or at `atMs`, epoch ms). */
  mark(instance: string, stage: Stage, atMs = epochNowMs()): void {
    const marks = this.#marks.get(instance);
    if (marks === undefined) this.#marks.set(instance, [{ stage, atMs }]);
    else marks.push({ stage, atMs });
  }

  /** Every mark so far, by instance, to send to the process that adds them up. */
  marks(): Record<string, StageMark[]> {
    return Object.fromEntries(this.#marks);
  }

  /** Adds the marks another process took (the runtime's, to the client's). */
  addMarks(marks: Readonly<Record<string, readonly StageMark[]>>): void {
    for (const [instance, list] of Object.entries(marks)) {
      for (const { stage, atMs } of list) this.mark(instance, stage, atMs);
    }
  }

  /** The steps the given instances took, the costliest first. */
  steps(instances: readonly string[]): StageStep[] {
    const totals = new Map<string, { from: Stage; to: Stage; ms: number; times: number }>();
    for (const instance of instances) {
      const marks = [...(this.#marks.get(instance) ?? [])].sort((a, b) => a.atMs - b.atMs);
      for (let index = 1; index < marks.length; index += 1) {
        const previous = marks[index - 1] as StageMark;
        const { stage: to, atMs } = marks[index] as StageMark;
        const from = previous.stage;
        const key = `${from}\u0000${to}`;
        const total = totals.get(key) ?? { from, to, ms: 0, times: 0 };
        total.ms += atMs - previous.atMs;
        total.times += 1;
        totals.set(key, total);
      }
    }
    const count = Math.max(instances.length, 1);
    return [...totals.values()]
      .map(({ from, to, ms, times }) => ({
        from,
        to,
        msPerInstance: ms / count,
        timesPerInstance: times / count,
      }))
      .sort((a, b) => b.msPerInstance - a.msPerInstance);
  }

  /**
   * `provider`, with the calls that move an instance on timed. Every call is passed through
   * unchanged.
   */
  watch(provider: Provider): Provider {
    const lockOwners = new Map<string, string>();
    const mark = (instance: string | undefined, stage: Stage): void => {
      if (instance !== undefined) this.mark(instance, stage);
    };
    const markTokens = (tokens: readonly string[], stage: Stage): void => {
      for (const instance of new Set(tokens.map((token) => lockOwners.get(token)))) {
        mark(instance, stage);
      }
    };
    /** Marks the instances of a batch of acks when it is sent and when each committed. */
    const ackTogether = async <Outcome extends { readonly ok: boolean }>(
      acks: readonly { readonly lockToken: string }[],
      [sent, committed]: readonly [Stage, Stage],
      send: () => Promise<Outcome[]> | undefined,
    ): Promise<Outcome[]> => {
      const tokens = acks.map((ack) => ack.lockToken);
      markTokens(tokens, sent);
      const outcomes = (await send()) ?? [];
      markTokens(
        tokens.filter((_, index) => outcomes[index]?.ok === true),
        committed,
      );
      return outcomes;
    };
    /** Marks the instances of fetched items, and notes whose each lock token is. */
    const fetched = (items: readonly Fetched[], stage: Stage): void => {
      const instances = new Set<string>();
      for (const { lockToken, item } of items) {
        if (!('instance' in item)) continue;
        lockOwners.set(lockToken, item.instance);
        instances.add(item.instance);
      }
      for (const instance of instances) mark(instance, stage);
    };
    const fetchOne = async <Item extends Fetched>(
      stage: Stage,
      fetch: () => Promise<Item | null>,
    ): Promise<Item | null> => {
      const item = await fetch();
      if (item !== null) fetched([item], stage);
      return item;
    };
    const fetchAll = async <Item extends Fetched>(
      stage: Stage,
      fetch: () => Promise<Item[]> | undefined,
    ): Promise<Item[]> => {
      const items = (await fetch()) ?? [];
      fetched(items, stage);
      return items;
    };
    const ackOne = async (
      lockToken: string,
      [sent, committed]: readonly [Stage, Stage],
      send: () => Promise<void>,
    ): Promise<void> => {
      markTokens([lockToken], sent);
      await send();
      markTokens([lockToken], committed);
    };
    const timed: Partial<Provider> = {
      enqueueForOrchestrator: async (item, delayMs) => {
        const start = item.type === 'StartOrchestration' ? item.instance : undefined;
        mark(start, 'start sent');
        await provider.enqueueForOrchestrator(item, delayMs);
        mark(start, 'start committed');
      },
      fetchOrchestrationItem: (...args) =>
        fetchOne('turn fetched', () => provider.fetchOrchestrationItem(...args)),
      fetchOrchestrationItems: (...args) =>
        fetchAll('turn fetched', () => provider.fetchOrchestrationItems?.(...args)),
      ackOrchestrationItem: (lockToken, ...rest) =>
        ackOne(lockToken, ['turn commit sent', 'turn committed'], () =>
          provider.ackOrchestrationItem(lockToken, ...rest),
        ),
      ackOrchestrationItems: async (acks, claim) => {
        const outcomes = await ackTogether(acks, ['turn commit sent', 'turn committed'], () =>
          provider.ackOrchestrationItems?.(acks, claim),
        );
        // Activities the commit wrote claimed reach the worker without a fetch.
        fetched(
          outcomes.flatMap((outcome) => (outcome.ok ? (outcome.claimedActivities ?? []) : [])),
          'activities fetched',
        );
        return outcomes;
      },
      fetchWorkItem: (...args) =>
        fetchOne('activities fetched', () => provider.fetchWorkItem(...args)),
      fetchWorkItems: (...args) =>
        fetchAll('activities fetched', () => provider.fetchWorkItems?.(...args)),
      ackWorkItem: (lockToken, completion) =>
        ackOne(lockToken, ['completions sent', 'completions committed'], () =>
          provider.ackWorkItem(lockToken, completion),
        ),
      ackWorkItems: (acks) =>
        ackTogether(acks, ['completions sent', 'completions committed'], () =>
          provider.ackWorkItems?.(acks),
        ),
    };
    return withOverrides(provider, timed);
  }
}
