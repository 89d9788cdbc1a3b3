import { postgresValidationFactory } from '@duro/provider-postgres/validation';
import { testSchemaName } from '@duro/test-postgres';
import { afterAll, inject } from 'vitest';
import '@duro/test-postgres/vitest';
import { describeRustProviderValidations } from './rust-provider-validations.js';

const factory = postgresValidationFactory({
  url: inject('duroDatabaseUrl'),
  // Each validation gets a schema of its own, migrated from scratch.
  newSchemaName: () => testSchemaName('rust-validation'),
  // The in-memory run's lock timeout, the smallest the validations allow, so lock-expiry waits
  // stay short; a local server answers well within it.
  lockTimeoutMs: 1_000,
});
afterAll(() => factory.close());

describeRustProviderValidations(factory);
