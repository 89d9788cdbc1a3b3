import { AccessTokenError } from '../database/access-token-error.js';
import type { EntraCredential } from './postgres-entra-options.js';

/**
 * The optional peer dependency. Named through a variable so that neither TypeScript nor a bundler
 * needs it: applications that never connect with Entra ID do not install it.
 */
const AZURE_IDENTITY: string = '@azure/identity';

interface AzureIdentityModule {
  readonly DefaultAzureCredential: new () => EntraCredential;
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** Loads a module by name; tests replace it to see the package missing. @internal */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/**
 * `@azure/identity`'s `DefaultAzureCredential`: environment, workload identity, managed identity,
 * then the developer tools (Azure CLI, Azure Developer CLI, Azure PowerShell). Constructing it
 * contacts nothing; its first `getToken` does.
 * @throws {AccessTokenError} (`unavailable`) saying to install `@azure/identity` when it is
 * missing.
 * @internal
 */
export async function loadDefaultAzureCredential(
  importModule: ModuleImporter = (specifier) => import(specifier),
): Promise<EntraCredential> {
  let identity: AzureIdentityModule;
  try {
    identity = (await importModule(AZURE_IDENTITY)) as AzureIdentityModule;
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new AccessTokenError(
      'unavailable',
      'connecting with Entra ID without a credential uses DefaultAzureCredential from ' +
        '@azure/identity, which is not installed: install it (npm install @azure/identity), or ' +
        'pass options.credential or options.getToken',
      { cause: error },
    );
  }
  return new identity.DefaultAzureCredential();
}
