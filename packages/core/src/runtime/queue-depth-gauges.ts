import type { Meter } from '@opentelemetry/api';
import type { Provider } from '../provider/provider.js';
import type { Logger } from './logger.js';
import { METRIC_NAMES } from './metric-names.js';

/**
 * Registers the queue depths of `provider` as OpenTelemetry observable gauges
 * (`duroxide_orchestrator_queue_depth`, `duroxide_worker_queue_depth`,
 * `duroxide_timer_queue_depth`), read from the store each time the application's metric reader
 * collects. A provider without management capability has no gauges. Returns the function that
 * unregisters them.
 * @internal
 */
export function observeQueueDepths(meter: Meter, provider: Provider, logger: Logger): () => void {
  const admin = provider.asManagementCapability?.() ?? null;
  if (admin === null) return () => undefined;
  const { gauges } = METRIC_NAMES;
  const orchestrator = meter.createObservableGauge(gauges.orchestratorQueue, {
    description: 'Messages waiting in the orchestrator queue',
  });
  const worker = meter.createObservableGauge(gauges.workerQueue, {
    description: 'Work items waiting in the worker queue',
  });
  const timer = meter.createObservableGauge(gauges.timerQueue, {
    description: 'Timers waiting to fire',
  });
  const observables = [orchestrator, worker, timer];
  const callback = async (result: {
    observe(observable: (typeof observables)[number], value: number): void;
  }): Promise<void> => {
    try {
      const depths = await admin.getQueueDepths();
      result.observe(orchestrator, depths.orchestratorQueue);
      result.observe(worker, depths.workerQueue);
      result.observe(timer, depths.timerQueue);
    } catch (error) {
      // A failed read skips one collection; the next one reads again.
      logger.debug({ error: String(error) }, 'queue depth read failed');
    }
  };
  meter.addBatchObservableCallback(callback, observables);
  return () => meter.removeBatchObservableCallback(callback, observables);
}
