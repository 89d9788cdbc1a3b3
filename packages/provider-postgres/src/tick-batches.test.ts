import { ProviderError } from '@duro/core';
import { describe, expect, it } from 'vitest';
import { TickBatches } from './tick-batches.js';

/** Groups whose senders record what they were given and answer with `together`'s outcome. */
function recordingGroups(
  together: (requests: readonly string[]) => Promise<string[]>,
  maxGroupSize = 10,
) {
  const sent: string[][] = [];
  const groups = new TickBatches<string, string>(
    {
      alone: (request) => {
        sent.push([request]);
        return request.startsWith('bad')
          ? Promise.reject(ProviderError.permanent('op', `refused ${request}`))
          : Promise.resolve(`${request} alone`);
      },
      together: (requests) => {
        sent.push([...requests]);
        return together(requests);
      },
    },
    maxGroupSize,
  );
  return { groups, sent };
}

describe('TickBatches', () => {
  it('sends the requests of one tick together, and those of a later tick apart', async () => {
    const { groups, sent } = recordingGroups((requests) =>
      Promise.resolve(requests.map((request) => `${request} together`)),
    );
    const first = await Promise.all([groups.send('a'), groups.send('b')]);
    const later = await groups.send('c');

    expect(first).toEqual(['a together', 'b together']);
    expect(later).toBe('c alone');
    expect(sent).toEqual([['a', 'b'], ['c']]);
  });

  it('sends a tick with more requests than a group holds as groups one after another', async () => {
    let inFlight = 0;
    let most = 0;
    const { groups, sent } = recordingGroups(async (requests) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return [...requests];
    }, 2);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((r) => groups.send(r)));

    expect(results).toEqual(['a', 'b', 'c', 'd', 'e alone']);
    expect(sent).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(most).toBe(1);
  });

  it('sends each request again, in order, when the group failed for good', async () => {
    const { groups, sent } = recordingGroups(() =>
      Promise.reject(ProviderError.permanent('op', 'a bad value')),
    );
    const outcomes = await Promise.allSettled([
      groups.send('a'),
      groups.send('bad'),
      groups.send('c'),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect([outcomes[0], outcomes[2]]).toEqual([
      { status: 'fulfilled', value: 'a alone' },
      { status: 'fulfilled', value: 'c alone' },
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({
      message: 'op: refused bad',
    });
    expect(sent).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('gives every caller a retryable failure of the group, sending nothing again', async () => {
    const lost = ProviderError.retryable('op', 'connection lost');
    const { groups, sent } = recordingGroups(() => Promise.reject(lost));
    const outcomes = await Promise.allSettled([groups.send('a'), groups.send('b')]);

    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(sent).toEqual([['a', 'b']]);
  });

  it('sends what is queued at once when asked to settle', async () => {
    const { groups, sent } = recordingGroups((requests) => Promise.resolve([...requests]));
    const queued = groups.send('a');
    const settled = groups.settle();
    expect(sent).toEqual([['a']]);

    await settled;
    await expect(queued).resolves.toBe('a alone');
  });
});
