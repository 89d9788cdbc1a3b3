import { createInstance } from '../support/fixtures.js';
import { kvAllClearedEvent, kvClearedEvent, kvSetEvent } from '../support/history-events.js';
import { expectKvValue, setKv, writeKv } from './turns.js';
import type { ValidationRun } from '../validation-group.js';

/**
 * The validations of duroxide's `kv_store.rs` about setting, overwriting, clearing and reading
 * keys within one running execution, and about instances not sharing keys. `kv-store.ts` lists
 * them in the Rust order.
 */
export const kvStoreBasics = {
  kv_set_and_get: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-set');
    await setKv(provider, 'kv-set', 1, { eventId: 100, key: 'counter', value: '42' });
    await expectKvValue(provider, 'kv-set', 'counter', '42');
  },

  kv_overwrite: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-over');
    await setKv(provider, 'kv-over', 1, { eventId: 100, key: 'status', value: 'old' });
    await expectKvValue(provider, 'kv-over', 'status', 'old', "initial value should be 'old'");

    await setKv(provider, 'kv-over', 1, { eventId: 101, key: 'status', value: 'new' });
    await expectKvValue(provider, 'kv-over', 'status', 'new');
  },

  kv_clear_single: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-clr1');
    await setKv(provider, 'kv-clr1', 1, { eventId: 100, key: 'remove_me', value: 'x' });
    await expectKvValue(
      provider,
      'kv-clr1',
      'remove_me',
      'x',
      'value should be set before clearing',
    );

    await writeKv(provider, 'kv-clr1', 1, [kvClearedEvent(101, 'kv-clr1', 1, 'remove_me')]);
    await expectKvValue(provider, 'kv-clr1', 'remove_me', null);
  },

  kv_clear_all: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-clra');
    await setKv(
      provider,
      'kv-clra',
      1,
      { eventId: 100, key: 'a', value: '1' },
      { eventId: 101, key: 'b', value: '2' },
    );
    await expectKvValue(provider, 'kv-clra', 'a', '1', "key 'a' should be set");
    await expectKvValue(provider, 'kv-clra', 'b', '2', "key 'b' should be set");

    await writeKv(provider, 'kv-clra', 1, [kvAllClearedEvent(102, 'kv-clra', 1)]);
    await expectKvValue(provider, 'kv-clra', 'a', null);
    await expectKvValue(provider, 'kv-clra', 'b', null);
  },

  kv_get_nonexistent: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-none');
    await expectKvValue(provider, 'kv-none', 'nope', null);
  },

  kv_instance_isolation: async ({ newProvider }) => {
    const provider = await newProvider();
    for (const instance of ['kv-iso-a', 'kv-iso-b']) await createInstance(provider, instance);
    for (const [instance, value] of [
      ['kv-iso-a', 'from_a'],
      ['kv-iso-b', 'from_b'],
    ] as const) {
      await setKv(provider, instance, 1, { eventId: 100, key: 'shared_name', value });
    }
    await expectKvValue(provider, 'kv-iso-a', 'shared_name', 'from_a');
    await expectKvValue(provider, 'kv-iso-b', 'shared_name', 'from_b');
  },

  kv_clear_nonexistent_key: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-clrne');
    // Clearing a key that was never set must not make the ack fail.
    await writeKv(provider, 'kv-clrne', 1, [kvClearedEvent(100, 'kv-clrne', 1, 'never_existed')]);
    await expectKvValue(provider, 'kv-clrne', 'never_existed', null);
  },

  kv_get_unknown_instance: async ({ newProvider }) => {
    const provider = await newProvider();
    await expectKvValue(provider, 'no-such-instance', 'key', null);
  },

  kv_set_after_clear: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-sac');
    await setKv(
      provider,
      'kv-sac',
      1,
      { eventId: 100, key: 'old_a', value: '1' },
      { eventId: 101, key: 'old_b', value: '2' },
    );
    // Clear everything, then set a new key, in one ack: the order within the delta counts.
    await writeKv(provider, 'kv-sac', 1, [
      kvAllClearedEvent(102, 'kv-sac', 1),
      kvSetEvent(103, 'kv-sac', 1, { key: 'new_x', value: 'fresh' }),
    ]);
    await expectKvValue(provider, 'kv-sac', 'old_a', null);
    await expectKvValue(provider, 'kv-sac', 'old_b', null);
    await expectKvValue(provider, 'kv-sac', 'new_x', 'fresh');
  },

  kv_empty_value: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-empty');
    await setKv(provider, 'kv-empty', 1, { eventId: 100, key: 'blank', value: '' });
    await expectKvValue(
      provider,
      'kv-empty',
      'blank',
      '',
      'empty string is a valid value, not None',
    );
  },

  kv_large_value: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-big');
    const bigValue = 'x'.repeat(16 * 1024);
    await setKv(provider, 'kv-big', 1, { eventId: 100, key: 'payload', value: bigValue });
    await expectKvValue(provider, 'kv-big', 'payload', bigValue);
  },

  kv_special_chars_in_key: async ({ newProvider }) => {
    const provider = await newProvider();
    await createInstance(provider, 'kv-chars');
    const entries: Array<[key: string, value: string]> = [
      ['key with spaces', 'v1'],
      ['日本語キー', 'v2'],
      ['dotted.key.name', 'v3'],
      ['path/like/key', 'v4'],
      ['emoji🎉key', 'v5'],
    ];
    await setKv(
      provider,
      'kv-chars',
      1,
      ...entries.map(([key, value], i) => ({ eventId: 100 + i, key, value })),
    );
    for (const [key, value] of entries) {
      await expectKvValue(provider, 'kv-chars', key, value, `key '${key}' should be retrievable`);
    }
  },

  kv_clear_isolation: async ({ newProvider }) => {
    const provider = await newProvider();
    for (const instance of ['kv-ciso-a', 'kv-ciso-b']) await createInstance(provider, instance);
    for (const [instance, value] of [
      ['kv-ciso-a', 'from_a'],
      ['kv-ciso-b', 'from_b'],
    ] as const) {
      await setKv(provider, instance, 1, { eventId: 100, key: 'shared', value });
    }

    await writeKv(provider, 'kv-ciso-a', 1, [kvAllClearedEvent(101, 'kv-ciso-a', 1)]);
    await expectKvValue(provider, 'kv-ciso-a', 'shared', null);
    await expectKvValue(
      provider,
      'kv-ciso-b',
      'shared',
      'from_b',
      'clearing instance A must not affect instance B',
    );
  },
} satisfies Record<string, ValidationRun>;
