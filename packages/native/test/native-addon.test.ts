import { describe, expect, it } from 'vitest';
import type * as NativeAddon from '../index.js';

async function loadAddon(): Promise<typeof NativeAddon> {
  try {
    return await import('../index.js');
  } catch (error) {
    throw new Error(
      '@duro/native needs the native build: install a Rust toolchain (cargo) and run ' +
        '`pnpm --filter @duro/native build`.',
      { cause: error },
    );
  }
}

describe('native addon', () => {
  it('loads and embeds duroxide 0.1.32', async () => {
    const addon = await loadAddon();
    expect(addon.duroxideVersion()).toBe('0.1.32');
  });
});
