import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ScenarioOutcome } from '../ts/index.js';

/** What a catalogue scenario must end with. */
export interface ScenarioExpectation {
  readonly status: 'Completed' | 'Failed';
  /** The output as a JSON value. */
  readonly output?: unknown;
  /** A pattern the output's JSON text matches. */
  readonly outputPattern?: string;
  readonly error?: string;
  readonly errorPattern?: string;
}

/** One entry of `scenarios/catalogue.json`, the list both runtimes run. */
export interface ScenarioSpec {
  readonly name: string;
  readonly features: readonly string[];
  readonly description: string;
  readonly orchestration: string;
  readonly version: string | null;
  /** The input as a JSON value. */
  readonly input: unknown;
  readonly steps: readonly unknown[];
  readonly expected: ScenarioExpectation;
}

/** The shared scenario catalogue. */
export const scenarioCatalogue: readonly ScenarioSpec[] = (
  JSON.parse(readFileSync(new URL('../scenarios/catalogue.json', import.meta.url), 'utf8')) as {
    scenarios: ScenarioSpec[];
  }
).scenarios;

/** Asserts that an outcome ended as its catalogue entry says. */
export function expectCatalogueOutcome(spec: ScenarioSpec, outcome: ScenarioOutcome): void {
  const { expected } = spec;
  expect(outcome.status, spec.name).toBe(expected.status);
  if (expected.output !== undefined) {
    expect(JSON.parse(outcome.output ?? 'undefined'), spec.name).toEqual(expected.output);
  }
  if (expected.outputPattern !== undefined) {
    expect(outcome.output, spec.name).toMatch(new RegExp(expected.outputPattern));
  }
  if (expected.error !== undefined) expect(outcome.error, spec.name).toBe(expected.error);
  if (expected.errorPattern !== undefined) {
    expect(outcome.error, spec.name).toMatch(new RegExp(expected.errorPattern));
  }
}
