import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDuroNative } from './native-addon.js';

const native = await loadDuroNative();

/** The source folder of duroxide's provider validations, as cargo resolved the crate. */
function duroxideValidationSources(): string {
  const manifest = fileURLToPath(new URL('../../../Cargo.toml', import.meta.url));
  const metadata = JSON.parse(
    execFileSync(
      'cargo',
      ['metadata', '--offline', '--format-version', '1', '--manifest-path', manifest],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    ),
  ) as { packages: Array<{ name: string; version: string; manifest_path: string }> };
  const duroxide = metadata.packages.find((p) => p.name === 'duroxide');
  if (duroxide === undefined) throw new Error('cargo metadata lists no duroxide package');
  expect(duroxide.version).toBe(native.duroxideVersion());
  return join(dirname(duroxide.manifest_path), 'src', 'provider_validation');
}

/** Every `module::function` public async function in duroxide's validation modules. */
function publicValidationFunctions(folder: string): string[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.rs') && file !== 'mod.rs')
    .flatMap((file) => {
      const module = file.slice(0, -'.rs'.length);
      const source = readFileSync(join(folder, file), 'utf8');
      return [...source.matchAll(/^pub async fn (\w+)/gm)].map((match) => `${module}::${match[1]}`);
    })
    .sort();
}

describe('the listing of duroxide provider validations', () => {
  it('names every public validation of duroxide 0.1.32 and nothing else', () => {
    const listed = [
      ...new Set(native.listProviderValidations().map((v) => `${v.module}::${v.function}`)),
    ];
    expect(listed.sort()).toEqual(publicValidationFunctions(duroxideValidationSources()));
  });

  it('gives every run a distinct id, and runs the stamped validation once per stamp', () => {
    const validations = native.listProviderValidations();
    expect(new Set(validations.map((v) => v.id)).size).toBe(validations.length);
    const stamped = validations.filter((v) => v.stamp !== null).map((v) => v.id);
    expect(stamped).toEqual([
      'race_replay::test_continue_as_new_transition_delivery@0.1.30',
      'race_replay::test_continue_as_new_transition_delivery@0.1.31',
    ]);
  });
});
