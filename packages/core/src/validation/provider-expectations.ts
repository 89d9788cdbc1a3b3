import { expect } from 'vitest';
import type { Provider } from '../provider/provider.js';
import type { ProviderAdmin } from '../provider/provider-admin.js';
import { ProviderError } from '../provider/provider-error.js';

/** The provider's management interface, failing the validation when it has none. */
export function adminOf(provider: Provider): ProviderAdmin {
  const admin = provider.asManagementCapability?.() ?? null;
  expect(admin, 'Provider should implement ProviderAdmin').not.toBeNull();
  return admin as ProviderAdmin;
}

/**
 * Waits for `operation` and returns the {@link ProviderError} it rejected with, failing the
 * validation with `message` when it succeeded or rejected with anything else.
 */
export async function expectProviderError(
  operation: Promise<unknown>,
  message = 'expected the call to fail',
): Promise<ProviderError> {
  try {
    await operation;
  } catch (error) {
    expect(ProviderError.isInstance(error), `${message}; it threw ${String(error)}`).toBe(true);
    return error as ProviderError;
  }
  return expect.fail(`${message}; it succeeded`);
}

/** Fails the validation with `message` unless `instance` has instance info. */
export async function expectInstanceExists(
  admin: ProviderAdmin,
  instance: string,
  message = `instance ${instance} should exist`,
): Promise<void> {
  await expect(admin.getInstanceInfo(instance), message).resolves.toMatchObject({
    instanceId: instance,
  });
}

/** Fails the validation with `message` unless asking for `instance`'s info fails. */
export async function expectInstanceGone(
  admin: ProviderAdmin,
  instance: string,
  message = `instance ${instance} should not exist`,
): Promise<void> {
  await expectProviderError(admin.getInstanceInfo(instance), message);
}
