import { InMemoryProvider } from '@duro/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioOutcome } from '../ts/index.js';
import { runDuroScenarios } from './duro-scenario-harness.js';
import { normaliseHistories } from './history-shape.js';
import { loadDuroNative } from './native-addon.js';
import { expectCatalogueOutcome, scenarioCatalogue } from './scenario-catalogue.js';

const native = await loadDuroNative();
const rustPrefix = 'rust-';
const duroPrefix = 'duro-';

let rust: ScenarioOutcome[];
let duro: ScenarioOutcome[];
beforeAll(async () => {
  rust = await native.runRustScenariosOnProvider(native.toWireProvider(new InMemoryProvider()), {
    instancePrefix: rustPrefix,
    names: null,
    timeoutMs: null,
  });
  duro = await runDuroScenarios(new InMemoryProvider(), scenarioCatalogue, duroPrefix);
}, 120_000);

describe('the duro runtime against the Rust runtime, on the scenario catalogue', () => {
  for (const [index, spec] of scenarioCatalogue.entries()) {
    it(`${spec.name}: duro ends as the catalogue says`, () => {
      expectCatalogueOutcome(spec, duro[index]!);
    });
    it(`${spec.name}: duro writes the history duroxide writes`, () => {
      expect(normaliseHistories(duro[index]!, duroPrefix)).toEqual(
        normaliseHistories(rust[index]!, rustPrefix),
      );
    });
  }
});
