import { expect } from 'vitest';
import type { Provider } from '../../provider/provider.js';
import type { ProviderAdmin } from '../../provider/provider-admin.js';
import { expectPresent, expectProviderError } from './fixtures.js';

/** The provider's management interface, failing the validation when it has none. */
export function adminOf(provider: Provider): ProviderAdmin {
  return expectPresent(
    provider.asManagementCapability?.(),
    'Provider should implement ProviderAdmin',
  );
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
