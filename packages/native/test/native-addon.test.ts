import { describe, expect, it } from 'vitest';
import { loadDuroNative } from './native-addon.js';

describe('native addon', () => {
  it('loads and embeds duroxide 0.1.32', async () => {
    const native = await loadDuroNative();
    expect(native.duroxideVersion()).toBe('0.1.32');
  });
});
