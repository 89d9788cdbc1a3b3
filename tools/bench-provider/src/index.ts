/**
 * The pieces of the provider benchmark that other benchmarks reuse: the description of the
 * server and machine a run measured, pgbench on the same server as the ceiling, and percentiles.
 */
export { readBenchEnvironment, type BenchEnvironment } from './bench-environment.js';
export { dropPgbench, pgbenchTps, preparePgbench } from './pgbench.js';
export { percentile } from './measure.js';
