import { describe, expect, it } from 'vitest';
import { AccessTokenError } from '../database/access-token-error.js';
import { loadDefaultAzureCredential } from './default-azure-credential.js';

describe('the default credential', () => {
  it("is @azure/identity's DefaultAzureCredential, loaded when asked for", async () => {
    const credential = await loadDefaultAzureCredential();
    expect(credential.constructor.name).toBe('DefaultAzureCredential');
    expect(typeof credential.getToken).toBe('function');
  });

  it('says to install @azure/identity, or to pass a credential, when the package is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@azure/identity'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await loadDefaultAzureCredential(() => Promise.reject(missing)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AccessTokenError.isInstance(error) && error.code).toBe('unavailable');
    expect((error as Error).message).toBe(
      'connecting with Entra ID without a credential uses DefaultAzureCredential from @azure/identity, which is not installed: install it (npm install @azure/identity), or pass options.credential or options.getToken',
    );
  });
});
