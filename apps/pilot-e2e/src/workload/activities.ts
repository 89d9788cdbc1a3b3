import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActivityContext, Runtime } from '@duro/core';
import {
  DIGEST_EVENT,
  DIGEST_ORCHESTRATION,
  NOTIFY_PARENT,
  RAISE_DIGEST,
  SPAWN_CHILD,
  TOOL,
  TURN,
  type NotifyParentInput,
  type RaiseDigestInput,
  type SpawnChildInput,
  type ToolInput,
  type TurnInput,
} from './activity-names.js';
import { digestOrchestration } from './digest-orchestration.js';
import type { ChildUpdate } from './session-message.js';
import { SESSION_ORCHESTRATION, SESSION_QUEUE } from './session-plan.js';
import { sessionOrchestration } from './session-orchestration.js';

/** What the hosting process learns about turns, for chaos timing and the progress display. */
export interface TurnObserver {
  /** A turn activity started. */
  onTurnStart(turn: TurnInput): void;
  /** A turn activity ended (finished, failed or cancelled). */
  onTurnEnd(turn: TurnInput): void;
  /** The session continues as new right after this turn: a good moment for a client burst. */
  onContinueAsNewSoon(session: string): void;
}

/** How long the last turn of an execution lingers after announcing continue-as-new, ms. */
const CONTINUE_AS_NEW_ANNOUNCE_LEAD_MS = 30;

async function runTurn(
  observer: TurnObserver,
  ctx: ActivityContext,
  turn: TurnInput,
): Promise<{ worker: string }> {
  observer.onTurnStart(turn);
  try {
    await sleep(turn.durationMs, undefined, { signal: ctx.signal }).catch(() => undefined);
    if (turn.beforeContinueAsNew) {
      observer.onContinueAsNewSoon(turn.session);
      await sleep(CONTINUE_AS_NEW_ANNOUNCE_LEAD_MS);
    }
    return { worker: ctx.workerId };
  } finally {
    observer.onTurnEnd(turn);
  }
}

async function notifyParent(ctx: ActivityContext, input: NotifyParentInput): Promise<void> {
  const update: ChildUpdate = {
    kind: 'update',
    from: input.from,
    seq: input.seq,
    nonce: randomUUID(),
    final: input.final,
  };
  await ctx.getClient().enqueueEvent(input.parent, SESSION_QUEUE, update);
}

async function spawnChild(ctx: ActivityContext, child: SpawnChildInput): Promise<void> {
  // Starting an id that exists is ignored, so a re-run after a crash starts nothing twice.
  await ctx.getClient().startOrchestration(child.id, SESSION_ORCHESTRATION, child.input);
}

async function runTool(ctx: ActivityContext, tool: ToolInput): Promise<void> {
  // A cancelled step stops at once; its result is discarded either way.
  await sleep(tool.durationMs, undefined, { signal: ctx.signal }).catch(() => undefined);
}

async function raiseDigest(ctx: ActivityContext, input: RaiseDigestInput): Promise<void> {
  await ctx.getClient().raiseEvent(input.instance, DIGEST_EVENT, { turn: input.turn });
}

/** Registers the session and digest orchestrations and their activities on `runtime`. */
export function registerSessionWorkload(runtime: Runtime, observer: TurnObserver): void {
  runtime.registerOrchestration(SESSION_ORCHESTRATION, sessionOrchestration);
  runtime.registerOrchestration(DIGEST_ORCHESTRATION, digestOrchestration);
  runtime.registerActivity<ToolInput, void>(TOOL, runTool);
  runtime.registerActivity<RaiseDigestInput, void>(RAISE_DIGEST, raiseDigest);
  runtime.registerActivity<TurnInput, { worker: string }>(TURN, (ctx, turn) =>
    runTurn(observer, ctx, turn),
  );
  runtime.registerActivity<NotifyParentInput, void>(NOTIFY_PARENT, notifyParent);
  runtime.registerActivity<SpawnChildInput, void>(SPAWN_CHILD, spawnChild);
}
