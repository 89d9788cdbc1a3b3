import type { DashboardContext } from '../dashboard-context.js';
import type { QueuesJson } from '../shared/api-types.js';

/** `GET api/queues`: the queues, locks and sessions now, and the sampler's readings. */
export async function readQueues(context: DashboardContext): Promise<QueuesJson> {
  const overview = await context.inspector.readQueueOverview(Date.now());
  return {
    ...overview,
    samples: context.sampler.samples(),
    sampleIntervalMs: context.sampler.intervalMs,
  };
}
