/**
 * A runtime process of the bench: serves the workloads on duro or on the Rust runtime until it
 * is told to stop, telling the bench of every instance whose final turn committed.
 */
import type { RustBenchWorker } from '@duro/native';
import { startProcessMeter } from './cpu-meter.js';
import { DuroBenchWorker } from './duro-worker.js';
import { memoryBreakdown } from './memory.js';
import { labelledRates, QueryCounter } from './query-counter.js';
import type {
  EndedInstance,
  FromRuntimeProcess,
  RuntimeProcessReport,
  RuntimeProcessSpec,
  ToRuntimeProcess,
} from './runtime-process.js';
import { epochNowMs } from './stage-times.js';

const send = (message: FromRuntimeProcess): void => {
  process.send?.(message);
};

/** Sends the last message and ends the process once it is out. */
function sendAndExit(message: FromRuntimeProcess, code: number): void {
  if (process.send === undefined) process.exit(code);
  process.send(message, () => process.exit(code));
}

/** What the bench needs of either runtime once it runs. */
interface Served {
  readonly activityAcks: () => number;
  readonly stageMarks: () => RuntimeProcessReport['stageMarks'];
  readonly stop: () => Promise<void>;
}

/** Instances ended since the last message, sent together once the current work is done. */
let ends: EndedInstance[] = [];
function noteEnded(instance: string, failure: string | null): void {
  if (ends.length === 0) {
    setImmediate(() => {
      send({ type: 'ended', ends });
      ends = [];
    });
  }
  ends.push({ instance, finishedAtMs: epochNowMs(), failure });
}

async function serveRust(spec: RuntimeProcessSpec & { config: { kind: 'rust' } }): Promise<Served> {
  const { startRustBenchWorker } = await import('@duro/native');
  const { kind: _kind, ...options } = spec.config;
  const worker: RustBenchWorker = await startRustBenchWorker(spec.url, spec.schema, options);
  const forwarding = (async () => {
    for (;;) {
      const batch = await worker.nextCompletions();
      if (batch.length === 0) return;
      send({
        type: 'ended',
        ends: batch.map((end) => ({
          instance: end.instance,
          finishedAtMs: end.finishedAtMs,
          failure: end.failure ?? null,
        })),
      });
    }
  })();
  return {
    activityAcks: () => worker.activityAcks(),
    stageMarks: () => undefined,
    stop: async () => {
      await worker.stop();
      await forwarding;
    },
  };
}

async function serveDuro(spec: RuntimeProcessSpec & { config: { kind: 'duro' } }): Promise<Served> {
  const worker = await DuroBenchWorker.start(
    spec.url,
    spec.schema,
    spec.config,
    noteEnded,
    spec.stages,
  );
  return {
    activityAcks: () => worker.activityAcks,
    stageMarks: () => worker.stageMarks(),
    stop: () => worker.stop(),
  };
}

/**
 * With `DURO_BENCH_ALLOCATION_PROFILE=FILE` set, samples every allocation the runtime makes
 * (collected objects included, unlike `--heap-prof`) until it is told to stop, and writes the
 * profile to `FILE.<pid>.heapprofile` (open it in Chrome's DevTools): what makes its young
 * generation grow.
 */
async function profileAllocations(): Promise<() => Promise<void>> {
  const file = process.env.DURO_BENCH_ALLOCATION_PROFILE;
  if (file === undefined || file === '') return async () => undefined;
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    await writeFile(`${file}.${process.pid}.heapprofile`, JSON.stringify(profile));
    session.disconnect();
  };
}

async function main(spec: RuntimeProcessSpec): Promise<void> {
  const stopProfile = await profileAllocations();
  const counter = spec.config.kind === 'duro' ? QueryCounter.install() : null;
  const served =
    spec.config.kind === 'rust'
      ? await serveRust({ ...spec, config: spec.config })
      : await serveDuro({ ...spec, config: spec.config });
  const statementsBefore = counter?.labelled();
  const cpuSince = startProcessMeter();
  process.on('message', (message: ToRuntimeProcess) => {
    if (message.type !== 'stop') return;
    const cpuMs = cpuSince();
    const memory = memoryBreakdown();
    const statements =
      counter === null || statementsBefore === undefined
        ? undefined
        : labelledRates(statementsBefore, counter.labelled(), 1);
    void served.stop().then(async () => {
      await stopProfile();
      const stageMarks = served.stageMarks();
      const report: RuntimeProcessReport = {
        cpuMs,
        memory,
        activityAcks: served.activityAcks(),
        ...(statements === undefined ? {} : { statements }),
        ...(stageMarks === undefined ? {} : { stageMarks }),
      };
      sendAndExit({ type: 'stopped', report }, 0);
    });
  });
  send({ type: 'ready' });
}

try {
  await main(JSON.parse(process.argv[2] ?? '') as RuntimeProcessSpec);
} catch (error) {
  sendAndExit(
    { type: 'failed', message: error instanceof Error ? error.message : String(error) },
    1,
  );
}
