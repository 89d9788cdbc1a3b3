import { InMemoryProvider } from '@duro/core';
import { useTestSchema } from '@duro/test-postgres/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioOutcome } from '../ts/index.js';
import { normaliseHistories } from './history-shape.js';
import { loadDuroNative } from './native-addon.js';
import { expectCatalogueOutcome, scenarioCatalogue } from './scenario-catalogue.js';

const native = await loadDuroNative();
const schema = useTestSchema();
const pgPrefix = 'rust-pg-';
const memoryPrefix = 'rust-memory-';

// Runs of the whole catalogue, shared by the tests below: on duroxide-pg, and on duro's
// InMemoryProvider through the bridge.
let onPostgres: ScenarioOutcome[];
let onInMemory: ScenarioOutcome[];
beforeAll(async () => {
  onPostgres = await native.runRustScenariosOnPostgres(schema.databaseUrl, schema.name, {
    instancePrefix: pgPrefix,
    names: null,
    timeoutMs: null,
  });
  onInMemory = await native.runRustScenariosOnProvider(
    native.toWireProvider(new InMemoryProvider()),
    { instancePrefix: memoryPrefix, names: null, timeoutMs: null },
  );
}, 120_000);

describe('the Rust runtime running the scenario catalogue', () => {
  it('runs every catalogue scenario to its expected end on duroxide-pg', () => {
    expect(onPostgres.map((outcome) => outcome.name)).toEqual(scenarioCatalogue.map((s) => s.name));
    scenarioCatalogue.forEach((spec, index) => expectCatalogueOutcome(spec, onPostgres[index]!));
  });

  it('runs every catalogue scenario to its expected end on InMemoryProvider through the bridge', () => {
    scenarioCatalogue.forEach((spec, index) => expectCatalogueOutcome(spec, onInMemory[index]!));
  });

  it('writes the same histories on InMemoryProvider as on duroxide-pg', () => {
    scenarioCatalogue.forEach((spec, index) => {
      expect(normaliseHistories(onInMemory[index]!, memoryPrefix), spec.name).toEqual(
        normaliseHistories(onPostgres[index]!, pgPrefix),
      );
    });
  });

  it('covers every orchestration feature the catalogue promises', () => {
    const features = new Set(scenarioCatalogue.flatMap((spec) => spec.features));
    for (const feature of [
      'activities',
      'retries',
      'timers',
      'external-events',
      'queues',
      'races',
      'sub-orchestrations',
      'detached-starts',
      'continue-as-new',
      'versioning',
      'sessions',
      'tags',
      'kv',
      'custom-status',
      'cancellation',
      'failures',
      'nondeterminism',
    ]) {
      expect(features, feature).toContain(feature);
    }
    expect(scenarioCatalogue.length).toBeGreaterThanOrEqual(25);
  });
});
