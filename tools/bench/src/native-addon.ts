import type { RuntimeName } from './options.js';

/** The `@duro/native` build the Rust runtime of a run ran in. */
export interface NativeAddon {
  /** `debug` runs the Rust side several times slower than a user's release build would. */
  readonly profile: 'release' | 'debug';
  /** The duroxide release the addon embeds. */
  readonly duroxide: string;
}

/** Thrown when the Rust side would run in a debug build and the command did not allow it. */
export class DebugAddonError extends Error {
  override readonly name = 'DebugAddonError';
}

/** Reads the addon the Rust cells run in; `null` when no cell runs Rust. */
export async function readNativeAddon(
  runtimes: readonly RuntimeName[],
): Promise<NativeAddon | null> {
  if (!runtimes.includes('rust')) return null;
  const { buildProfile, duroxideVersion } = await import('@duro/native');
  return { profile: buildProfile() === 'debug' ? 'debug' : 'release', duroxide: duroxideVersion() };
}

/**
 * Refuses a debug addon unless `allowed`: its Rust runtime is not the one users run, so a ratio
 * against it flatters duro (a headline run once measured the Rust side 1.5-2× slower that way).
 * @throws {DebugAddonError}
 */
export function requireReleaseAddon(addon: NativeAddon | null, allowed: boolean): void {
  if (addon?.profile !== 'debug' || allowed) return;
  throw new DebugAddonError(
    '@duro/native is a debug build, which runs the Rust side several times slower than a ' +
      'release build: rebuild it with `DURO_NATIVE_PROFILE=release pnpm turbo run build ' +
      '--filter=@duro/bench...`, or pass --allow-debug-addon to measure it anyway',
  );
}

/** The report's line about the addon; none when no cell ran Rust. */
export function nativeAddonLines(addon: NativeAddon | null): string[] {
  if (addon === null) return [];
  const build =
    addon.profile === 'release'
      ? 'release build'
      : 'DEBUG build (--allow-debug-addon): the Rust figures are slower than a release build';
  return [`- @duro/native: ${build}, duroxide ${addon.duroxide}`];
}
