import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from './cli-error.js';

/**
 * The part of `@duro/dashboard` that `duro ui` calls: `startDashboard` and the options it passes.
 * The dashboard is an optional package (this one does not depend on it, so workers stay lean);
 * its `startDashboard` in `packages/dashboard/src/dashboard.ts` must keep accepting these
 * options, and its test of `duro ui` runs this command against it.
 */
export interface DashboardModule {
  startDashboard(options: {
    readonly databaseUrl: string;
    readonly schema: string;
    readonly host: string;
    readonly port: number;
    readonly accessToken?: string;
    readonly allowActions: boolean;
    readonly log: (line: string) => void;
  }): Promise<{
    readonly url: string;
    readonly accessToken: string | undefined;
    close(): Promise<void>;
  }>;
}

const PACKAGE = '@duro/dashboard';

/**
 * Loads `@duro/dashboard` from where the command runs (the app's own dependencies), else from
 * beside this package.
 * @throws {CliError} (usage) saying how to install it when neither has it.
 */
export async function loadDashboard(workingDirectory: string): Promise<DashboardModule> {
  const places = [join(workingDirectory, 'package.json'), import.meta.url];
  for (const place of places) {
    let resolved: string;
    try {
      resolved = createRequire(place).resolve(PACKAGE);
    } catch {
      continue;
    }
    return (await import(pathToFileURL(resolved).href)) as DashboardModule;
  }
  throw CliError.usage(
    `the dashboard is the ${PACKAGE} package: install it next to @duro/provider-postgres (npm install ${PACKAGE})`,
  );
}
