/**
 * Fails a mixed-fleet run before it starts when the Rust runtime cannot be loaded: `@duro/native`
 * throws on import when its addon was not built (no cargo, or the build was skipped).
 * @throws {Error} naming the build to run, with the loader's own message.
 */
export async function requireRustRuntime(): Promise<void> {
  try {
    await import('@duro/native');
  } catch (error) {
    throw new Error(
      '--mixed-fleet needs the Rust runtime of @duro/native, which could not be loaded; ' +
        `build it with \`pnpm --filter @duro/native build\` (needs cargo): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
