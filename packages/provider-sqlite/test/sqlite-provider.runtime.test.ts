import type { Provider } from '@duro/core';
import { describeRuntimeScenarios } from '@duro/core/validation';
import { SqliteProvider } from '@duro/provider-sqlite';
import { join } from 'node:path';
import { describe } from 'vitest';
import { useTempDirectory } from './support/temp-directory.js';

const directory = useTempDirectory('runtime');
let files = 0;

const close = (provider: Provider) => (provider as SqliteProvider).close();

describe('on a database file', () => {
  describeRuntimeScenarios({
    createProvider: () => SqliteProvider.open(join(directory, `runtime-${++files}.db`)),
    destroyProvider: close,
  });
});

describe('in memory', () => {
  describeRuntimeScenarios({
    createProvider: () => SqliteProvider.inMemory(),
    destroyProvider: close,
  });
});
