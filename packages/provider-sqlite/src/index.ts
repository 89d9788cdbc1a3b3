/**
 * `@duro/provider-sqlite`: the duroxide provider contract on SQLite, in one durable file or in
 * memory, on the schema of duroxide's own SQLite provider (a Rust duroxide process can open the
 * same file).
 *
 * @example
 * ```ts
 * import { Client, Runtime } from '@duro/core';
 * import { SqliteProvider } from '@duro/provider-sqlite';
 *
 * const provider = await SqliteProvider.open('./data/duro.db');
 * const runtime = new Runtime(provider);
 * runtime.registerActivity('Greet', async (_ctx, name: string) => `Hello, ${name}!`);
 * runtime.registerOrchestration('Hello', function* (ctx, name: string) {
 *   return yield ctx.scheduleActivity('Greet', name);
 * });
 * await runtime.start();
 * ```
 *
 * @module @duro/provider-sqlite
 */
export { SqliteProvider } from './sqlite-provider.js';
export type { SqliteProviderOptions } from './sqlite-provider-options.js';
