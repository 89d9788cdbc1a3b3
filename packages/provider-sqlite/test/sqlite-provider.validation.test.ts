import { describeProviderValidations } from '@duro/core/validation';
import { sqliteValidationFactory } from '@duro/provider-sqlite/validation';
import { useTempDirectory } from './support/temp-directory.js';

const factory = sqliteValidationFactory({
  directory: useTempDirectory('validation'),
  // The smallest lock timeout the suite allows, so lock-expiry waits stay short.
  lockTimeoutMs: 1_000,
});

describeProviderValidations(factory);
