import { describeProviderValidations } from '@duro/core/validation';
import { afterAll } from 'vitest';
import { postgresValidationFactory } from '../src/validation/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const factory = postgresValidationFactory({
  url: database.url,
  // Each validation gets a schema of its own, migrated from scratch.
  newSchemaName: () => database.newSchemaName('validation'),
});
afterAll(() => factory.close());

describeProviderValidations(factory);
