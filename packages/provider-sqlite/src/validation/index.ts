/**
 * `@duro/provider-sqlite/validation`: a validation factory for `SqliteProvider`, for running
 * `@duro/core/validation` (or duroxide's Rust suite through `@duro/native`) against it.
 *
 * @module @duro/provider-sqlite/validation
 */
export {
  sqliteValidationFactory,
  type SqliteValidationFactoryOptions,
} from './sqlite-validation-factory.js';
