import type {
  FetchedOrchestrationItem,
  OrchestrationItemAck,
  Runtime,
  TurnClaim,
  WorkItemOf,
} from '@duro/core';
import { describeTurnClaimValidations } from '@duro/core/validation';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { PostgresProvider } from '../src/index.js';
import { postgresValidationFactory } from '../src/validation/index.js';
import { echoes, runFanOut } from './support/fan-out-runtime.js';
import { useTestDatabase } from './support/test-database.js';
import { activityOf, eventOf, FIRST_TURN, startInstance } from './support/turns.js';

// `ackWorkItemsRunningTurns`: an activity acknowledgement claims the turns its completions wake,
// in its own transaction, and the first commit of those turns commits everything at once. The
// shared validations hold it to the contract; the tests below cover what is PostgreSQL's own:
// the one transaction, the server ending a hung one, and a runtime using it.
const database = useTestDatabase();
const factory = postgresValidationFactory({
  url: database.url,
  newSchemaName: () => database.newSchemaName('turnclaims'),
});
const runtimes: Runtime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown(2_000)));
});
afterAll(() => factory.close());

describeTurnClaimValidations(factory);

const CLAIM: TurnClaim = { maxItems: 8, lockTimeoutMs: 30_000, filter: null };

/** The completion of activity 2 of `instance`. */
const completed = (instance: string): WorkItemOf<'ActivityCompleted'> => ({
  type: 'ActivityCompleted',
  instance,
  executionId: 1,
  id: 2,
  result: '"done"',
});

/** Starts `instance`, schedules its activity 2 and claims it; returns the activity's lock token. */
async function runningActivity(provider: PostgresProvider, instance: string): Promise<string> {
  await startInstance(provider, instance);
  await provider.enqueueForWorker(activityOf(instance, 2));
  const [activity] = await provider.fetchWorkItems(30_000, 0, null, { type: 'DefaultOnly' }, 1, 0);
  if (activity === undefined) throw new Error(`no activity of ${instance}`);
  return activity.lockToken;
}

/** The commit of a turn that records the completion and keeps running. */
const recordingCompletion = (turn: FetchedOrchestrationItem): OrchestrationItemAck => ({
  lockToken: turn.lockToken,
  executionId: 1,
  historyDelta: [eventOf(turn.item.instance, 2, { type: 'ActivityCompleted', result: '"done"' })],
  workerItems: [],
  orchestratorItems: [],
  metadata: FIRST_TURN,
  cancelledActivities: [],
});

interface MessageRow {
  work_item: string;
  lock_token: string | null;
  attempt_count: number;
}

/** The queued messages of `instance`, in order, as [work item type, lock token, attempt count]. */
const messagesOf = async (
  provider: PostgresProvider,
  instance: string,
): Promise<[string, string | null, number][]> =>
  (
    await database.query<MessageRow>(
      `SELECT work_item, lock_token, attempt_count FROM "${provider.schema}".orchestrator_queue
       WHERE instance_id = $1 ORDER BY id`,
      [instance],
    )
  ).map((row) => [
    Object.keys(JSON.parse(row.work_item) as object)[0] ?? '',
    row.lock_token,
    row.attempt_count,
  ]);

/** The kinds of the stored events of `instance`, in order. */
const eventKindsOf = async (provider: PostgresProvider, instance: string): Promise<string[]> =>
  (
    await database.query<{ kind: string }>(
      `SELECT event_data::jsonb->>'type' AS kind FROM "${provider.schema}".history
       WHERE instance_id = $1 ORDER BY event_id`,
      [instance],
    )
  ).map((row) => row.kind);

const queuedActivities = async (provider: PostgresProvider): Promise<number> =>
  (await database.query(`SELECT 1 FROM "${provider.schema}".worker_queue`)).length;

describe('ackWorkItemsRunningTurns', () => {
  it('claims the turn a completion wakes and commits both in one transaction', async () => {
    const provider = await database.newProvider({}, 'ackturns');
    const lockToken = await runningActivity(provider, 'a');
    const seenInside: unknown[] = [];
    const outcomes = await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completed('a') }],
      CLAIM,
      async (turns, commit) => {
        expect(turns.map((turn) => turn.item.instance)).toEqual(['a']);
        expect(turns[0]?.item.messages).toEqual([completed('a')]);
        expect(turns[0]?.attemptCount).toBe(1);
        // Nothing is committed yet: others still see the activity queued and no message.
        seenInside.push(await queuedActivities(provider), await messagesOf(provider, 'a'));
        const committed = await commit(turns.map(recordingCompletion));
        expect(committed).toEqual([{ ok: true, claimedActivities: [] }]);
      },
    );
    expect(outcomes).toEqual([{ ok: true }]);
    expect(seenInside).toEqual([1, []]);
    expect(await queuedActivities(provider)).toBe(0);
    expect(await messagesOf(provider, 'a')).toEqual([]);
    expect(await eventKindsOf(provider, 'a')).toEqual([
      'OrchestrationStarted',
      'ActivityCompleted',
    ]);
    const locks = await database.query(`SELECT 1 FROM "${provider.schema}".instance_locks`);
    expect(locks).toHaveLength(0);
  });

  it('loses the transaction to the server when its runner hangs past the lease', async () => {
    const provider = await database.newProvider({}, 'ackturnshang');
    const lockToken = await runningActivity(provider, 'a');
    let commitFailure: unknown = null;
    const outcomes = await provider.ackWorkItemsRunningTurns(
      [{ lockToken, completion: completed('a') }],
      { ...CLAIM, lockTimeoutMs: 300 },
      async (turns, commit) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        commitFailure = await commit(turns.map(recordingCompletion)).then(
          () => null,
          (error: unknown) => error,
        );
      },
    );
    expect(commitFailure).not.toBeNull();
    // The activity is still acknowledged, on its own; the turn's message waits for a fetch.
    expect(outcomes).toEqual([{ ok: true }]);
    expect(await queuedActivities(provider)).toBe(0);
    expect(await messagesOf(provider, 'a')).toEqual([['ActivityCompleted', null, 0]]);
  });
});

describe('a runtime with turnsWithActivityAcks', () => {
  it('runs the turn that completions wake without fetching it', async () => {
    const provider = await database.newProvider({}, 'ackturnsruntime');
    const result = await runFanOut(provider, 5, {}, 'fetchOrchestrationItems', runtimes);
    expect(result).toEqual({ output: echoes(5), fetched: 1 });
  });

  it('fetches every turn with the option off', async () => {
    const provider = await database.newProvider({}, 'ackturnsoff');
    const options = { turnsWithActivityAcks: false };
    const result = await runFanOut(provider, 5, options, 'fetchOrchestrationItems', runtimes);
    expect(result).toEqual({ output: echoes(5), fetched: 2 });
  });
});
