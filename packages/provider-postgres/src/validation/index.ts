/**
 * `@duro/provider-postgres/validation`: a provider-validation factory for `PostgresProvider`, for
 * running `@duro/core/validation` (or duroxide's own suite, through `@duro/native`) against it.
 *
 * @module @duro/provider-postgres/validation
 */
export {
  postgresValidationFactory,
  type PostgresValidationFactory,
  type PostgresValidationFactoryOptions,
} from './postgres-validation-factory.js';
