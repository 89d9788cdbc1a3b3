export { useTestSchema, type TestSchema } from './use-test-schema.js';
