// Imports every public entry point of the packed packages by name, as an app does, and checks
// that the names an app relies on are there at run time (the types are checked by tsc).
import * as core from '@duro/core';
import * as validation from '@duro/core/validation';
import * as dashboard from '@duro/dashboard';
import * as duroxide from '@duro/duroxide';
import * as postgres from '@duro/provider-postgres';
import * as inspection from '@duro/provider-postgres/inspection';
import * as sqlite from '@duro/provider-sqlite';
import * as sqliteValidation from '@duro/provider-sqlite/validation';

const expected: Record<string, readonly string[]> = {
  '@duro/core': [
    'Runtime',
    'Client',
    'ManagementClient',
    'InMemoryProvider',
    'ProviderError',
    'DUROXIDE_VERSION',
    'createDefaultLogger',
  ],
  '@duro/core/validation': ['describeProviderValidations', 'describeRuntimeScenarios'],
  '@duro/provider-postgres': [
    'PostgresProvider',
    'runMigrations',
    'renderMigrationSql',
    'MigrationError',
    'DUROXIDE_MIGRATION_VERSIONS',
  ],
  '@duro/provider-sqlite': ['SqliteProvider'],
  '@duro/provider-sqlite/validation': ['sqliteValidationFactory'],
  '@duro/duroxide': [
    'SqliteProvider',
    'PostgresProvider',
    'Client',
    'Runtime',
    'OrchestrationContext',
    'ActivityContext',
    'initTracing',
    'MAX_KV_KEYS',
    'MAX_KV_VALUE_BYTES',
    'MAX_WORKER_TAGS',
    'MAX_TAG_NAME_BYTES',
  ],
  '@duro/provider-postgres/inspection': [
    'SchemaInspector',
    'explainDiagnosis',
    'DEFAULT_FLEET_ASSUMPTIONS',
    'INSTANCE_STATUSES',
  ],
  '@duro/dashboard': ['startDashboard', 'createDashboard', 'DashboardOptionsError'],
};
const modules: Record<string, Record<string, unknown>> = {
  '@duro/core': core,
  '@duro/core/validation': validation,
  '@duro/provider-postgres': postgres,
  '@duro/provider-sqlite': sqlite,
  '@duro/provider-sqlite/validation': sqliteValidation,
  '@duro/duroxide': duroxide,
  '@duro/provider-postgres/inspection': inspection,
  '@duro/dashboard': dashboard,
};

/** Fails with every missing export named. */
export function checkEntryPoints(): void {
  const missing = Object.entries(expected).flatMap(([entry, names]) =>
    names
      .filter((name) => modules[entry]?.[name] === undefined)
      .map((name) => `${entry} has no export '${name}'`),
  );
  if (missing.length > 0) throw new Error(missing.join('\n'));
  const runtime: core.Runtime = new core.Runtime(new core.InMemoryProvider(), {
    logLevel: 'silent',
  });
  if (typeof runtime.metricsSnapshot !== 'function')
    throw new Error('Runtime lacks metricsSnapshot');
}
