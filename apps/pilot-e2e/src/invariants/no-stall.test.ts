import { describe, expect, it } from 'vitest';
import type { AuditTrail } from '../observe/audit-records.js';
import type { WorkerLife } from './claim-holds.js';
import { checkNoStall } from './no-stall.js';
import type { StallBounds, StallEvidence } from './stall-evidence.js';
import { claimRecord, fetchWait, lockEvent } from './outcomes.test-support.js';

const BOUNDS: StallBounds = {
  announcedMs: 1_010,
  silentMs: 6_010,
  sessionLockTimeoutMs: 5_000,
  sessionIdleTimeoutMs: 10_000,
  orchestratorLockTimeoutMs: 3_000,
  workerLockTimeoutMs: 3_000,
};

const LIVES: WorkerLife[] = [
  { worker: 'main-w0', pid: 100, startedAtMs: 0, endedAtMs: null },
  { worker: 'main-w1', pid: 200, startedAtMs: 0, endedAtMs: null },
];

/** The first fetch of each worker life and queue, done at 1 ms (it connected, and found nothing). */
const FIRST_FETCHES = LIVES.flatMap((life) =>
  (['orchestrator', 'worker'] as const).map((queue) =>
    fetchWait(0, 1, { worker: life.worker, life: life.pid, queue }),
  ),
);

function evidence(audit: AuditTrail, fields: Partial<StallEvidence> = {}): StallEvidence {
  const waits = audit.waits.length === 0 ? [] : [...FIRST_FETCHES, ...audit.waits];
  return {
    audit: { ...audit, waits },
    lives: LIVES,
    freezes: [],
    outages: [],
    connectionDrops: [],
    ...fields,
  };
}

/** `main-w1` claims activity `t2` at `claimedAtMs`; it became visible at 1 000 ms. */
function lateClaim(claimedAtMs: number, fields: Parameters<typeof claimRecord>[0] = {}) {
  return claimRecord({
    worker: 'main-w1',
    life: 200,
    lockToken: 't2',
    runnableAtMs: 1_000,
    claimedAtMs,
    fetchStartedAtMs: claimedAtMs - 5,
    lockedUntilMs: claimedAtMs + 3_000,
    ...fields,
  });
}

describe('no-stall', () => {
  it('passes when work is claimed as soon as it is runnable and every claim ends', () => {
    const result = checkNoStall(
      evidence({
        claims: [claimRecord()],
        lockEvents: [lockEvent({ kind: 'ack' })],
        waits: [fetchWait(900, 1_000, { returned: 1 })],
      }),
      BOUNDS,
    );
    expect(result.passed, result.violations.join('\n')).toBe(true);
    expect(result.figures.judged).toBe(1);
  });

  it('fails on a claim that a live worker neither acknowledged nor abandoned', () => {
    const result = checkNoStall(
      evidence({
        claims: [claimRecord({ session: 'session-0000' })],
        lockEvents: [],
        waits: [fetchWait(900, 1_000)],
      }),
      BOUNDS,
    );
    expect(result.name).toBe('no-stall');
    expect(result.passed).toBe(false);
    expect(result.violations[0]).toContain(
      'main-w0 (pid 100, alive until the end) claimed s/session-0000',
    );
    expect(result.violations[0]).toContain('neither acknowledged nor abandoned it');
  });

  it('excuses an unfinished claim whose holder died before its lease ran out', () => {
    const lives = [{ ...LIVES[0]!, endedAtMs: 2_000 }, LIVES[1]!];
    const result = checkNoStall(
      evidence(
        { claims: [claimRecord()], lockEvents: [], waits: [fetchWait(900, 1_000)] },
        { lives },
      ),
      BOUNDS,
    );
    expect(result.passed, result.violations.join('\n')).toBe(true);
  });

  it('does not count as lost a claim whose work was cancelled before the claim was read', () => {
    // The turn that scheduled the activity cancelled it, deleting its row, as the claim returned:
    // the runtime runs it and may drop it without an acknowledgement; nothing waits for it.
    const cancelled = claimRecord({ lockedUntilMs: null, stillQueued: false });
    const result = checkNoStall(
      evidence({ claims: [cancelled], lockEvents: [], waits: [fetchWait(900, 1_000)] }),
      BOUNDS,
    );
    expect(result.figures.lostClaims).toBe(0);
  });

  it('excuses an unfinished claim whose holder froze before its lease ran out', () => {
    const result = checkNoStall(
      evidence(
        { claims: [claimRecord()], lockEvents: [], waits: [fetchWait(900, 1_000)] },
        { freezes: [{ worker: 'main-w0', fromMs: 500, toMs: 6_000 }] },
      ),
      BOUNDS,
    );
    expect(result.passed, result.violations.join('\n')).toBe(true);
  });

  it('fails when announced work waits past the bound while another worker idles, naming the instance', () => {
    const claims = [lateClaim(5_000)];
    const result = checkNoStall(
      evidence({
        claims,
        lockEvents: [
          lockEvent({ lockToken: 't2', kind: 'ack', atMs: 5_100, worker: 'main-w1', life: 200 }),
        ],
        waits: [fetchWait(500, 5_000, { sessionRouting: false })],
      }),
      BOUNDS,
    );
    expect(result.passed).toBe(false);
    expect(result.violations[0]).toContain(
      's/session-0000 activity waited 4000 ms until main-w1 claimed it',
    );
    expect(result.violations[0]).toContain(
      '4000 ms of it while a worker with room was idle (0 ms only in the claiming fetch',
    );
  });

  it('counts a slow claiming fetch as idle only when it had to wait for its work', () => {
    // The fetch started at 4 000 ms and took 2 s; the work was visible at 1 000 ms (backlog)
    // or only at 4 500 ms (the fetch waited for it, and was woken late).
    const judge = (runnableAtMs: number) =>
      checkNoStall(
        evidence({
          claims: [lateClaim(6_000, { runnableAtMs, fetchStartedAtMs: 4_000 })],
          lockEvents: [lockEvent({ lockToken: 't2', kind: 'ack', worker: 'main-w1', life: 200 })],
          waits: [fetchWait(4_000, 6_000, { worker: 'main-w1', life: 200, returned: 1 })],
        }),
        BOUNDS,
      );
    expect(judge(1_000).passed).toBe(true);
    expect(judge(4_500).violations[0]).toContain('1500 ms only in the claiming fetch');
  });

  it('does not count the first fetch after a worker started or lost its connections as idle', () => {
    // The fetch started at 4 000 ms, right after the drop, and took 2 s reconnecting.
    const audit = {
      claims: [lateClaim(6_000, { runnableAtMs: 4_100, fetchStartedAtMs: 4_000 })],
      lockEvents: [lockEvent({ lockToken: 't2', kind: 'ack', worker: 'main-w1', life: 200 })],
      waits: [fetchWait(4_000, 6_000, { worker: 'main-w1', life: 200, returned: 1 })],
    };
    expect(checkNoStall(evidence(audit), BOUNDS).passed).toBe(false);
    const dropped = checkNoStall(
      evidence(audit, { connectionDrops: [{ worker: 'main-w1', atMs: 3_990 }] }),
      BOUNDS,
    );
    expect(dropped.passed, dropped.violations.join('\n')).toBe(true);
    const restarted = [LIVES[0]!, { ...LIVES[1]!, startedAtMs: 3_900 }];
    expect(checkNoStall(evidence(audit, { lives: restarted }), BOUNDS).passed).toBe(true);
    const serverRestart = { outages: [{ fromMs: 3_000, toMs: 3_500 }] };
    expect(checkNoStall(evidence(audit, serverRestart), BOUNDS).passed).toBe(true);
  });

  it("judges the wait until the claim was sent, not the claim statement's own round trip", () => {
    // The fetch started at 4 000 ms, its work became visible at 4 500 ms, and it returned at
    // 6 000 ms; the provider sent the claim (and started the 3 s lease) at `sentAtMs`.
    const judge = (sentAtMs: number) =>
      checkNoStall(
        evidence({
          claims: [
            lateClaim(6_000, {
              runnableAtMs: 4_500,
              fetchStartedAtMs: 4_000,
              lockedUntilMs: sentAtMs + 3_000,
            }),
          ],
          lockEvents: [lockEvent({ lockToken: 't2', kind: 'ack', worker: 'main-w1', life: 200 })],
          waits: [fetchWait(4_000, 6_000, { worker: 'main-w1', life: 200, returned: 1 })],
        }),
        BOUNDS,
      );
    const sentAtOnce = judge(4_600);
    expect(sentAtOnce.passed, sentAtOnce.violations.join('\n')).toBe(true);
    expect(sentAtOnce.figures.longestIdleMs).toBe(100);
    const sentLate = judge(5_900);
    expect(sentLate.passed).toBe(false);
    expect(sentLate.violations[0]).toContain(
      'waited 1400 ms until main-w1 claimed it at 1970-01-01T00:00:05.900Z',
    );
    expect(sentLate.violations[0]).toContain('1900 ms to send its claim and 100 ms more to return');
  });

  it('does not count time in which no worker had room', () => {
    const result = checkNoStall(
      evidence({
        claims: [lateClaim(5_000)],
        lockEvents: [lockEvent({ lockToken: 't2', kind: 'ack', worker: 'main-w1', life: 200 })],
        waits: [fetchWait(4_500, 5_000)],
      }),
      BOUNDS,
    );
    expect(result.passed, result.violations.join('\n')).toBe(true);
    expect(result.figures.longestIdleMs).toBe(500);
  });

  it('holds work freed by a lease running out to the safety-net bound', () => {
    const first = claimRecord({ lockedUntilMs: 4_000 });
    const lost = lockEvent({ kind: 'ack-lost', atMs: 4_500 });
    const again = (claimedAtMs: number) =>
      lateClaim(claimedAtMs, { runnableAtMs: 995, attempt: 2 });
    const judge = (claimedAtMs: number) =>
      checkNoStall(
        evidence({
          claims: [first, again(claimedAtMs)],
          lockEvents: [
            lost,
            lockEvent({ lockToken: 't2', kind: 'ack', worker: 'main-w1', life: 200 }),
          ],
          waits: [fetchWait(3_000, claimedAtMs, { worker: 'main-w1', life: 200 })],
        }),
        BOUNDS,
      );
    expect(judge(9_000).passed).toBe(true);
    const late = judge(12_000);
    expect(late.passed).toBe(false);
    expect(late.violations[0]).toContain("main-w0's lease on it ran out");
    expect(late.violations[0]).toContain('bound 6010 ms');
  });

  it('takes a session over only once its dead owner could no longer hold it', () => {
    const owner = claimRecord({
      worker: 'main-w1',
      life: 200,
      session: 'session-0000',
      lockToken: 't0',
      messageKey: 'm0',
    });
    const taken = claimRecord({
      session: 'session-0000',
      claimedAtMs: 7_500,
      fetchStartedAtMs: 7_495,
      lockedUntilMs: 10_500,
      runnableAtMs: 1_500,
    });
    const lives = [LIVES[0]!, { ...LIVES[1]!, endedAtMs: 2_000 }];
    const result = checkNoStall(
      evidence(
        {
          claims: [owner, taken],
          lockEvents: [lockEvent({ kind: 'ack', atMs: 7_600 })],
          waits: [fetchWait(1_000, 7_500)],
        },
        { lives },
      ),
      BOUNDS,
    );
    expect(result.passed, result.violations.join('\n')).toBe(true);
    expect(result.figures.longestIdleMs).toBe(500);
  });

  it('waits out the lease of a claim that died with its worker before it was recorded', () => {
    // Attempt 2 of a message never seen claimed: main-w1 died at 1 500 ms with it claimed.
    const again = (claimedAtMs: number) =>
      lateClaim(claimedAtMs, { worker: 'main-w0', life: 100, attempt: 2 });
    const judge = (claimedAtMs: number, lives: WorkerLife[]) =>
      checkNoStall(
        evidence(
          {
            claims: [
              claimRecord({ worker: 'main-w1', life: 200, lockToken: 'other', messageKey: 'x' }),
              again(claimedAtMs),
            ],
            lockEvents: [
              lockEvent({ lockToken: 'other', kind: 'ack' }),
              lockEvent({ lockToken: 't2', kind: 'ack' }),
            ],
            waits: [fetchWait(1_000, claimedAtMs, { sessionRouting: false })],
          },
          { lives },
        ),
        BOUNDS,
      );
    const died = [LIVES[0]!, { ...LIVES[1]!, endedAtMs: 1_500 }];
    expect(judge(4_800, died).passed).toBe(true);
    const froze = checkNoStall(
      evidence(
        {
          claims: [
            claimRecord({ worker: 'main-w1', life: 200, lockToken: 'other', messageKey: 'x' }),
            again(4_800),
          ],
          lockEvents: [
            lockEvent({ lockToken: 'other', kind: 'ack' }),
            lockEvent({ lockToken: 't2', kind: 'ack' }),
          ],
          waits: [fetchWait(1_000, 4_800, { sessionRouting: false })],
        },
        { freezes: [{ worker: 'main-w1', fromMs: 1_500, toMs: 7_000 }] },
      ),
      BOUNDS,
    );
    expect(froze.passed, froze.violations.join('\n')).toBe(true);
    expect(judge(4_800, LIVES).passed).toBe(false);
    expect(judge(12_000, died).violations[0]).toContain('a claim that never reached a worker');
  });

  it('waits out a session lock that another worker may have taken with a fetch that never returned', () => {
    // main-w1 lost its connections at 1 500 ms; the session's activity went to main-w0 later.
    const judge = (claimedAtMs: number) =>
      checkNoStall(
        evidence(
          {
            claims: [
              claimRecord({ worker: 'main-w1', life: 200, lockToken: 'other', messageKey: 'x' }),
              claimRecord({
                session: 'session-0000',
                lockToken: 't2',
                claimedAtMs,
                fetchStartedAtMs: claimedAtMs - 5,
                lockedUntilMs: claimedAtMs + 3_000,
              }),
            ],
            lockEvents: [
              lockEvent({ lockToken: 'other', kind: 'ack' }),
              lockEvent({ lockToken: 't2', kind: 'ack' }),
            ],
            waits: [fetchWait(1_000, claimedAtMs)],
          },
          { connectionDrops: [{ worker: 'main-w1', atMs: 1_500 }] },
        ),
        BOUNDS,
      );
    expect(judge(6_800).passed).toBe(true);
    expect(judge(13_000).violations[0]).toContain(
      'a session lock that a fetch which never returned may have taken ran out',
    );
  });

  it('does not count a frozen worker or a database that was down as idle', () => {
    const claims = [lateClaim(5_000)];
    const audit = {
      claims,
      lockEvents: [lockEvent({ lockToken: 't2', kind: 'ack', worker: 'main-w1', life: 200 })],
      waits: [fetchWait(1_000, 5_000, { sessionRouting: false })],
    };
    const frozen = checkNoStall(
      evidence(audit, { freezes: [{ worker: 'main-w0', fromMs: 1_500, toMs: 4_800 }] }),
      BOUNDS,
    );
    expect(frozen.passed, frozen.violations.join('\n')).toBe(true);
    const down = checkNoStall(
      evidence(audit, { outages: [{ fromMs: 1_200, toMs: 4_500 }] }),
      BOUNDS,
    );
    expect(down.passed, down.violations.join('\n')).toBe(true);
  });

  it('fails a run in which nothing could be judged', () => {
    const result = checkNoStall(evidence({ claims: [], lockEvents: [], waits: [] }), BOUNDS);
    expect(result.violations).toEqual([
      'no claim could be judged: the check saw nothing',
      'no fetch wait was recorded: idle room was not observed',
    ]);
  });
});
