import type { Provider } from '../provider/provider.js';
import type { ProviderCapabilities, ProviderFactory } from './provider-factory.js';

/** What one validation receives. */
export interface ValidationContext {
  /** Makes the providers the validation runs against. */
  readonly factory: ProviderFactory;
  /** A provider on a fresh store, destroyed after the validation (pass or fail). */
  readonly newProvider: () => Promise<Provider>;
}

/** The body of one validation; it rejects (through `expect`) when the provider is wrong. */
export type ValidationRun = (ctx: ValidationContext) => Promise<void>;

/** A validation, or one that applies only when `appliesTo(factory)` is true. */
export type Validation =
  | ValidationRun
  | {
      /** The validation's body. */
      readonly run: ValidationRun;
      /** Whether it applies to providers made by this factory (by its declared capabilities). */
      readonly appliesTo: (f: ProviderFactory) => boolean;
    };

/**
 * The validations ported from one duroxide `provider_validation` module, or one group of duro's
 * own for a capability beyond duroxide's contract.
 */
export interface ValidationGroup {
  /** The Rust module name, e.g. "instance_locking" (duro's groups are named alike). */
  readonly name: string;
  /** Keys are the Rust function names minus a leading `test_`, in the Rust file's order. */
  readonly validations: Readonly<Record<string, Validation>>;
  /** The capability a provider needs for the group to apply; none for duroxide's groups. */
  readonly requires: keyof ProviderCapabilities | null;
}

const RUST_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Declares a group of validations.
 * @throws {TypeError} when the group or a validation is not named like a Rust function
 *   (snake_case), or a validation name still carries the `test_` prefix.
 */
export function defineValidationGroup(
  name: string,
  validations: Record<string, Validation>,
  requires: keyof ProviderCapabilities | null = null,
): ValidationGroup {
  if (!RUST_NAME.test(name)) {
    throw new TypeError(`validation group name must be a Rust module name, got "${name}"`);
  }
  for (const key of Object.keys(validations)) {
    if (!RUST_NAME.test(key) || key.startsWith('test_')) {
      throw new TypeError(
        `validation "${name}.${key}" must be the Rust function name without "test_"`,
      );
    }
  }
  return Object.freeze({ name, validations: Object.freeze({ ...validations }), requires });
}

/** The body of a validation, whether or not it is conditional. */
export function validationRun(validation: Validation): ValidationRun {
  return typeof validation === 'function' ? validation : validation.run;
}

/** Whether a validation applies to providers made by `factory`. */
export function validationAppliesTo(validation: Validation, factory: ProviderFactory): boolean {
  return typeof validation === 'function' || validation.appliesTo(factory);
}

/**
 * Runs one validation against providers from `factory`, destroying every provider it asked for
 * afterwards, whether it passed or failed. For runners other than
 * `describeProviderValidations`.
 * @throws the validation's own failure first; otherwise the first error of a `destroyProvider`.
 */
export async function runValidation(
  /** Makes the providers the validation runs against. */
  factory: ProviderFactory,
  validation: Validation,
): Promise<void> {
  const created: Provider[] = [];
  const ctx: ValidationContext = {
    factory,
    newProvider: async () => {
      const provider = await factory.createProvider();
      created.push(provider);
      return provider;
    },
  };
  let failed = false;
  let failure: unknown;
  try {
    await validationRun(validation)(ctx);
  } catch (error) {
    failed = true;
    failure = error;
  }
  const cleanupErrors: unknown[] = [];
  for (const provider of created) {
    try {
      await factory.destroyProvider(provider);
    } catch (error) {
      cleanupErrors.push(error);
    }
  }
  if (failed) throw failure;
  if (cleanupErrors.length > 0) throw cleanupErrors[0];
}
