import type { ProviderFactory } from '@duro/core/validation';
import { describe, it } from 'vitest';
import type { RustProviderValidation } from '../ts/index.js';
import { loadDuroNative } from './native-addon.js';

const native = await loadDuroNative();

function appliesTo(validation: RustProviderValidation, factory: ProviderFactory): boolean {
  switch (validation.polling) {
    case 'Any':
      return true;
    case 'LongPolling':
      return factory.capabilities.longPolling;
    case 'ShortPolling':
      return !factory.capabilities.longPolling;
  }
}

/** The vitest title of a validation: the Rust function name minus `test_`, plus its stamp. */
function title(validation: RustProviderValidation): string {
  const name = validation.function.replace(/^test_/, '');
  return validation.stamp === null ? name : `${name} (stamp ${validation.stamp})`;
}

/**
 * Registers every validation of duroxide's own provider suite that applies to the factory's
 * providers (by polling mode, as duroxide's runners choose by hand) as one vitest test each:
 * describe(Rust module) → it(Rust function).
 */
export function describeRustProviderValidations(factory: ProviderFactory): void {
  const validations = native.listProviderValidations().filter((v) => appliesTo(v, factory));
  const modules = new Map<string, RustProviderValidation[]>();
  for (const validation of validations) {
    modules.set(validation.module, [...(modules.get(validation.module) ?? []), validation]);
  }
  // The longest validations wait out several lock timeouts and run whole runtimes.
  const timeoutMs = 60_000 + 10 * factory.lockTimeoutMs;
  describe(`duroxide ${native.duroxideVersion()} provider validations: ${factory.name}`, () => {
    for (const [module, group] of modules) {
      describe(module, () => {
        for (const validation of group) {
          it(
            title(validation),
            () => native.runRustProviderValidation(validation.id, factory),
            timeoutMs,
          );
        }
      });
    }
  });
}
