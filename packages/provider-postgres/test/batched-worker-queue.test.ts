import { describeBatchedWorkerQueueValidations } from '@duro/core/validation';
import { afterAll } from 'vitest';
import { postgresValidationFactory } from '../src/validation/index.js';
import { useTestDatabase } from './support/test-database.js';

const database = useTestDatabase();
const factory = postgresValidationFactory({
  url: database.url,
  newSchemaName: () => database.newSchemaName('batch'),
});
afterAll(() => factory.close());

describeBatchedWorkerQueueValidations(factory);
