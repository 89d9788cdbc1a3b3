import type * as DuroNative from '../ts/index.js';

/**
 * Imports `@duro/native`, failing with one clear message when the native addon was not built
 * (no Rust toolchain, or the build was never run), so a parity test never passes or skips
 * silently without it.
 */
export async function loadDuroNative(): Promise<typeof DuroNative> {
  try {
    return await import('../ts/index.js');
  } catch (error) {
    throw new Error(
      '@duro/native needs the native build: install a Rust toolchain (cargo) and run ' +
        '`pnpm --filter @duro/native build`.',
      { cause: error },
    );
  }
}
