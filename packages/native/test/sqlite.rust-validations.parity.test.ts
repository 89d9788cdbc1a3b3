import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteValidationFactory } from '@duro/provider-sqlite/validation';
import { afterAll } from 'vitest';
import { describeRustProviderValidations } from './rust-provider-validations.js';

const directory = mkdtempSync(join(tmpdir(), 'duro-rust-validation-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeRustProviderValidations(
  // The in-memory run's lock timeout, the smallest the validations allow, so lock-expiry waits
  // stay short. Every validation gets a database file of its own.
  sqliteValidationFactory({ directory, lockTimeoutMs: 1_000 }),
);
