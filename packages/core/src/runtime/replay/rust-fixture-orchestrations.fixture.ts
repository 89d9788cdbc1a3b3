import type { OrchestrationContext } from './orchestration-context.js';
import type { OrchestrationFunction } from './replay-engine.js';

// TypeScript twins of the orchestrations that wrote /work/shared/fixtures/rust-duroxide-0.1.30
// through Rust duroxide and duroxide-node: same decisions in the same order, so replaying the
// Rust-written histories through our engine must find no nondeterminism.

type Gen = Generator<unknown, unknown, unknown>;

function message(error: unknown): string {
  return (error as Error).message;
}

function* activityBasic(ctx: OrchestrationContext, input: unknown): Gen {
  const ok = yield* ctx.scheduleActivity('Echo', input);
  const typed = yield* ctx.scheduleActivityTyped('Echo', {
    nested: { n: 1, s: 'quote " backslash \\ nl \n tab \t unicode é ✓' },
  });
  let caught = '';
  try {
    yield ctx.scheduleActivity('Fail', 'first');
  } catch (error) {
    caught = message(error);
  }
  return { ok, typed, caught };
}

function* timers(ctx: OrchestrationContext): Gen {
  const a = yield* ctx.scheduleTimer(50);
  const b = yield* ctx.scheduleTimer(0);
  return { a, b };
}

function* queues(ctx: OrchestrationContext): Gen {
  const a = yield* ctx.dequeueEvent('inbox');
  const b = yield* ctx.dequeueEvent('inbox');
  const c = yield* ctx.dequeueEventTyped('other');
  return { a, b, c };
}

function* customStatus(ctx: OrchestrationContext): Gen {
  ctx.setCustomStatus('step-1');
  yield ctx.scheduleActivity('Echo', 1);
  ctx.setCustomStatus('{"step":2,"note":"json text"}');
  ctx.setCustomStatus('step-2b');
  yield ctx.scheduleTimer(10);
  ctx.resetCustomStatus();
  return { seen: ctx.getCustomStatus() };
}

function* kv(ctx: OrchestrationContext): Gen {
  ctx.setValue('k1', 'v1');
  ctx.setValue('k2', 'v2');
  ctx.setValue('old', 'to be pruned');
  ctx.setValue('empty', '');
  ctx.clearValue('k2');
  const cutoff = yield* ctx.utcNow();
  const pruned = ctx.pruneKvValuesUpdatedBefore(cutoff);
  ctx.setValue('k1', 'v1-updated');
  const before = ctx.getKvAllValues();
  yield ctx.scheduleActivity('Echo', 'between');
  ctx.clearAllValues();
  ctx.setValue('k3', 'after clear-all');
  return {
    pruned,
    before,
    after: ctx.getKvAllValues(),
    keys: ctx.getKvAllKeys(),
    len: ctx.getKvLength(),
  };
}

function* join(ctx: OrchestrationContext): Gen {
  return yield* ctx.all([
    ctx.scheduleActivity('Echo', 'a'),
    ctx.scheduleActivity('Fail', 'b'),
    ctx.scheduleTimer(10),
    ctx.waitForEvent('ev'),
    ctx.dequeueEvent('q'),
  ]);
}

function* raceSelect(ctx: OrchestrationContext): Gen {
  const r1 = yield* ctx.race(
    ctx.scheduleActivity('SlowCancellable', { key: 'race-select/r1', ms: 15000 }),
    ctx.scheduleTimer(300),
  );
  const r2 = yield* ctx.race(ctx.waitForEvent('never'), ctx.scheduleTimer(100));
  const r3 = yield* ctx.race(ctx.dequeueEvent('never-queue'), ctx.scheduleTimer(100));
  const r4 = yield* ctx.race(ctx.scheduleActivity('Echo', 'fast wins'), ctx.scheduleTimer(2500));
  const r5 = yield* ctx.race(ctx.waitForEvent('go'), ctx.scheduleTimer(3000));
  return { r1, r2, r3, r4, r5 };
}

function* activityRetry(ctx: OrchestrationContext): Gen {
  const flaky = yield* ctx.scheduleActivityWithRetry(
    'Flaky',
    { key: 'activity-retry', failTimes: 2 },
    { maxAttempts: 3, backoff: 'exponential' },
  );
  let exhausted = '';
  try {
    yield ctx.scheduleActivityWithRetry('AlwaysFail', 'x', {
      maxAttempts: 2,
      backoff: 'exponential',
    });
  } catch (error) {
    exhausted = message(error);
  }
  let timedOut = '';
  try {
    yield ctx.scheduleActivityWithRetry(
      'SlowCancellable',
      { key: 'activity-retry/slow', ms: 8000 },
      { maxAttempts: 2, timeoutMs: 300 },
    );
  } catch (error) {
    timedOut = message(error);
  }
  return { flaky, exhausted, timedOut };
}

function* guidUtcNow(ctx: OrchestrationContext): Gen {
  const guid = yield* ctx.newGuid();
  const now = yield* ctx.utcNow();
  return { guidLength: guid.length, nowIsNumber: typeof now === 'number' };
}

function* externalEvents(ctx: OrchestrationContext): Gen {
  const a = yield* ctx.waitForEvent('approve');
  const b = yield* ctx.waitForEvent('approve');
  const c = yield* ctx.waitForEvent('second-name');
  return { a, b, c };
}

function* childEcho(ctx: OrchestrationContext, input: unknown): Gen {
  const r = yield* ctx.scheduleActivity('Echo', input);
  return { child: ctx.instanceId, r };
}

function* childFail(ctx: OrchestrationContext, input: unknown): Gen {
  yield ctx.scheduleTimer(10);
  throw new Error(`child failed on purpose (${JSON.stringify(input)})`);
}

function* subOrchestrations(ctx: OrchestrationContext): Gen {
  const auto = yield* ctx.scheduleSubOrchestration('ChildEcho', { n: 1 });
  const explicit = yield* ctx.scheduleSubOrchestrationWithId(
    'ChildEcho',
    'sub-orchestrations-explicit',
    { n: 2 },
  );
  let failed = '';
  try {
    yield ctx.scheduleSubOrchestrationWithId('ChildFail', 'sub-orchestrations-failing', { n: 3 });
  } catch (error) {
    failed = message(error);
  }
  const v1 = yield* ctx.scheduleSubOrchestrationVersioned('Versioned', '1.0.0', { n: 4 });
  const v2 = yield* ctx.scheduleSubOrchestrationVersionedWithId(
    'Versioned',
    '2.0.0',
    'sub-orchestrations-v2',
    { n: 5 },
  );
  const both = yield* ctx.all([
    ctx.scheduleSubOrchestration('ChildEcho', { n: 6 }),
    ctx.scheduleSubOrchestration('ChildEcho', { n: 7 }),
  ]);
  return { auto, explicit, failed, v1, v2, both };
}

function* versionedV1(ctx: OrchestrationContext, input: { upgrade?: boolean }): Gen {
  if (input.upgrade) {
    ctx.setCustomStatus('v1 before upgrade');
    return yield* ctx.continueAsNewVersioned({ from: '1.0.0' }, '2.0.0');
  }
  return { version: ctx.orchestrationVersion, input };
}

function* versionedV2(ctx: OrchestrationContext, input: unknown): Gen {
  const r = yield* ctx.scheduleActivity('Echo', `v2 exec ${ctx.executionId}`);
  return { version: ctx.orchestrationVersion, input, r };
}

function* continueAsNew(ctx: OrchestrationContext, input: { round: number }): Gen {
  if (input.round === 1) {
    ctx.setCustomStatus(JSON.stringify({ round: 1 }));
    ctx.setValue('rounds', '1');
    ctx.setValue('only-in-exec-1', 'x');
    const first = yield* ctx.dequeueEvent('inbox');
    yield ctx.waitForEvent('go');
    return yield* ctx.continueAsNew({ round: 2, first });
  }
  if (input.round === 2) {
    const got = [yield* ctx.dequeueEvent('inbox'), yield* ctx.dequeueEvent('inbox')];
    const child = yield* ctx.scheduleSubOrchestration('ChildEcho', { n: 'after-can' });
    ctx.setValue('rounds', '2');
    ctx.clearValue('only-in-exec-1');
    return yield* ctx.continueAsNew({ round: 3, got, child });
  }
  return {
    round: 3,
    input,
    status: ctx.getCustomStatus(),
    rounds: ctx.getValue('rounds'),
    exec: ctx.executionId,
  };
}

function* detached(ctx: OrchestrationContext): Gen {
  const a = yield* ctx.startOrchestration('ChildEcho', 'detached-start-detached-a', { n: 1 });
  const b = yield* ctx.startOrchestrationVersioned(
    'Versioned',
    '1.0.0',
    'detached-start-detached-b',
    { n: 2 },
  );
  return { a, b };
}

function* sessions(ctx: OrchestrationContext): Gen {
  const a = yield* ctx.scheduleActivityOnSession('Echo', 's1-a', 'session-1');
  const b = yield* ctx.scheduleActivityOnSession('Echo', 's1-b', 'session-1');
  const c = yield* ctx.scheduleActivityWithRetryOnSession(
    'Echo',
    's2',
    { maxAttempts: 2 },
    'session-2',
  );
  return [a, b, c];
}

function* tags(ctx: OrchestrationContext): Gen {
  const a = yield* ctx.scheduleActivity('Echo', 'tagged').withTag('gpu');
  const b = yield* ctx
    .scheduleActivity('Echo', 'session+tag', { sessionId: 'session-t' })
    .withTag('gpu');
  const c = yield* ctx.scheduleActivity('Echo', 'untagged');
  return [a, b, c];
}

function* waitForever(ctx: OrchestrationContext): Gen {
  return yield* ctx.waitForEvent('never');
}

function* cancelMe(ctx: OrchestrationContext): Gen {
  ctx.setCustomStatus('waiting for cancel');
  return yield* ctx.all([
    ctx.scheduleActivity('SlowCancellable', { key: 'cancel-instance/act', ms: 20000 }),
    ctx.waitForEvent('never'),
    ctx.dequeueEvent('never-queue'),
    ctx.scheduleSubOrchestrationWithId('WaitForever', 'cancel-instance-child'),
    ctx.scheduleTimer(60_000),
  ]);
}

/** The twins by orchestration name and version. */
export const FIXTURE_ORCHESTRATIONS: Readonly<
  Record<string, Readonly<Record<string, OrchestrationFunction>>>
> = {
  ActivityBasic: { '1.0.0': activityBasic },
  Timers: { '1.0.0': timers },
  Queues: { '1.0.0': queues },
  CustomStatus: { '1.0.0': customStatus },
  Kv: { '1.0.0': kv },
  Join: { '1.0.0': join },
  RaceSelect: { '1.0.0': raceSelect },
  ActivityRetry: { '1.0.0': activityRetry },
  GuidUtcNow: { '1.0.0': guidUtcNow },
  ExternalEvents: { '1.0.0': externalEvents },
  ChildEcho: { '1.0.0': childEcho },
  ChildFail: { '1.0.0': childFail },
  SubOrchestrations: { '1.0.0': subOrchestrations },
  Versioned: { '1.0.0': versionedV1, '2.0.0': versionedV2 },
  ContinueAsNew: { '1.0.0': continueAsNew },
  Detached: { '1.0.0': detached },
  Sessions: { '1.0.0': sessions },
  Tags: { '1.0.0': tags },
  WaitForever: { '1.0.0': waitForever },
  CancelMe: { '1.0.0': cancelMe },
};
