import { expect } from 'vitest';
import { Client, type ParsedOrchestrationStatus } from '../../client/client.js';
import type { WorkItem } from '../../model/work-item.js';
import { parseSemver } from '../../model/semver.js';
import type { OrchestrationContext } from '../../runtime/replay/orchestration-context.js';
import { DUROXIDE_VERSION } from '../../runtime/runtime-version.js';
import { eventWithId, expectPresent, fetchOrchestration } from '../support/fixtures.js';
import { runtimeWith, started, successorStart, waitUntil, type Gen } from './seeding.js';
import type { ValidationRun } from '../validation-group.js';

const SHAPES = [
  'queue',
  'race',
  'mixed-stale',
  'signal',
  'cancel',
  'future-completion',
  'stale-only',
] as const;
type Shape = (typeof SHAPES)[number];

/** What arrives for the instance while its successor start is not yet visible. */
function windowInputs(instance: string, shape: Shape): WorkItem[] {
  if (shape === 'future-completion' || shape === 'stale-only') {
    return [
      {
        type: 'ActivityCompleted',
        instance,
        executionId: shape === 'future-completion' ? 2 : 1,
        id: 99,
        result: '"unmatched"',
      },
    ];
  }
  const inputs: WorkItem[] = [{ type: 'QueueMessage', instance, name: 'q', data: '"late"' }];
  if (shape === 'mixed-stale') {
    inputs.push(
      { type: 'ActivityCompleted', instance, executionId: 1, id: 99, result: '"stale"' },
      { type: 'TimerFired', instance, executionId: 1, id: 100, fireAtMs: 1 },
      {
        type: 'SubOrchCompleted',
        parentInstance: instance,
        parentExecutionId: 1,
        parentId: 101,
        result: '"stale"',
      },
    );
  }
  if (shape === 'signal')
    inputs.push({ type: 'ExternalRaised', instance, name: 'signal', data: '"answer"' });
  if (shape === 'cancel')
    inputs.push({ type: 'CancelInstance', instance, reason: 'requested-during-CAN' });
  return inputs;
}

function* transition(ctx: OrchestrationContext, shape: Shape): Gen {
  if (ctx.executionId === 1) return yield* ctx.continueAsNew('next');
  if (shape === 'stale-only') return yield* ctx.dequeueEvent('q');
  if (shape === 'signal') {
    const answer = yield* ctx.waitForEvent<string>('signal');
    const first = yield* ctx.dequeueEvent<string>('q');
    const second = yield* ctx.dequeueEvent<string>('q');
    return `${first},${second}|${answer}`;
  }
  const values: unknown[] = [];
  while (values.length < 2) {
    if (shape === 'race') {
      const next = yield* ctx.race(ctx.dequeueEvent('q'), ctx.scheduleTimer(10));
      if (next.index === 0) values.push(next.value);
    } else {
      values.push(yield* ctx.dequeueEvent('q'));
    }
  }
  return values.join(',');
}

/**
 * duroxide's `test_continue_as_new_transition_delivery` for one predecessor stamp: inputs that
 * arrive while the successor's start is still invisible (2 s delay) are neither lost, nor
 * duplicated, nor applied to the predecessor; stale completions are dropped, a completion for a
 * future execution is nondeterminism, a cancel reaches the successor, and a positional signal
 * follows the bound-slot rule.
 */
export function transitionDelivery(stamp: string): ValidationRun {
  return async ({ newProvider }) => {
    for (const shape of SHAPES) {
      const provider = await newProvider();
      const instance = `provider-can-window-${stamp}-${shape}`;
      await provider.enqueueForOrchestrator(
        {
          type: 'StartOrchestration',
          instance,
          orchestration: 'Transition',
          input: '"old"',
          version: '1.0.0',
          parentInstance: null,
          parentId: null,
          executionId: 1,
        },
        null,
      );
      const seedLock = expectPresent(
        await fetchOrchestration(provider),
        'seed execution must be visible',
      );
      await provider.ackOrchestrationItem(
        seedLock.lockToken,
        1,
        [
          { ...started(instance, 'Transition', '"old"'), duroxideVersion: stamp },
          eventWithId(2, instance, 1, null, {
            type: 'OrchestrationContinuedAsNew',
            input: '"next"',
          }),
        ],
        [],
        windowInputs(instance, shape),
        {
          status: 'ContinuedAsNew',
          output: '"next"',
          orchestrationName: 'Transition',
          orchestrationVersion: '1.0.0',
          pinnedDuroxideVersion: parseSemver(stamp),
        },
        [],
      );
      await provider.enqueueForOrchestrator(
        successorStart(instance, 'Transition', [['q', '"carried"']]),
        2_000,
      );
      const runtime = await runtimeWith(
        provider,
        { unregisteredBackoff: { baseDelayMs: 250, maxDelayMs: 1_000 } },
        (rt) =>
          rt.registerOrchestration('Transition', function* (ctx): Gen {
            return yield* transition(ctx, shape);
          }),
      );
      const client = new Client(provider);
      let result: ParsedOrchestrationStatus;
      try {
        if (shape === 'signal') {
          await waitUntil('the successor audits the window signal and binds its wait', async () => {
            const history = await provider.readWithExecution(instance, 2);
            return (
              history.some((e) => e.kind.type === 'ExternalSubscribed') &&
              history.some((e) => e.kind.type === 'ExternalEvent' && e.kind.data === '"answer"')
            );
          });
          await client.raiseEvent(instance, 'signal', 'fresh');
        }
        result = await client.waitForOrchestration(instance, 10_000);
      } finally {
        await runtime.shutdown();
      }
      const label = `${stamp}/${shape}`;
      const old = await provider.readWithExecution(instance, 1);
      expect(
        old.map((e) => e.kind.type),
        `${label}: admission cannot mutate execution 1`,
      ).toEqual(['OrchestrationStarted', 'OrchestrationContinuedAsNew']);
      const successor = await provider.readWithExecution(instance, 2);
      expect(
        successor[0]?.duroxideVersion,
        'the predecessor stamp does not select the successor policy',
      ).toBe(DUROXIDE_VERSION);
      if (shape === 'future-completion') {
        expect(
          result.errorDetails,
          `${label}: a future-scoped completion must be validated`,
        ).toMatchObject({ type: 'Configuration', kind: { type: 'Nondeterminism' } });
        continue;
      }
      if (shape === 'stale-only') {
        expect(result, `${label}: stale-only batch must not obstruct the successor`).toMatchObject({
          status: 'Completed',
          output: 'carried',
        });
        continue;
      }
      if (shape === 'cancel') {
        expect(
          result.errorDetails,
          `${label}: cancellation must reach the successor`,
        ).toMatchObject({ kind: { type: 'Cancelled', reason: 'requested-during-CAN' } });
        continue;
      }
      let expected = 'carried,late';
      if (shape === 'signal') {
        const binding = successor.find((e) => e.kind.type === 'ExternalSubscribed')?.eventId ?? 0;
        const answer =
          successor.find((e) => e.kind.type === 'ExternalEvent' && e.kind.data === '"answer"')
            ?.eventId ?? 0;
        expected = answer < binding ? 'carried,late|fresh' : 'carried,late|answer';
        expect(
          successor.filter((e) => e.kind.type === 'ExternalEvent' && e.kind.data === '"answer"'),
          'positional input reaches admission once',
        ).toHaveLength(1);
      }
      expect(result, `${label}: carried input precedes the window arrival`).toMatchObject({
        status: 'Completed',
        output: expected,
      });
      const delivered = successor.flatMap((e) =>
        e.kind.type === 'QueueEventDelivered' ? [e.kind.data] : [],
      );
      expect(delivered, `${label}: no loss or duplication`).toEqual(['"carried"', '"late"']);
      if (shape === 'mixed-stale') {
        const applied = successor.filter(
          (e) =>
            ['ActivityCompleted', 'TimerFired', 'SubOrchestrationCompleted'].includes(
              e.kind.type,
            ) && (e.sourceEventId ?? 0) >= 99,
        );
        expect(applied, `${label}: stale completions must not be applied to the successor`).toEqual(
          [],
        );
      }
    }
  };
}
