// Builds the native addon when a Rust toolchain is present; otherwise says so and succeeds, so the
// workspace installs and builds on machines without cargo (the parity tests then explain what they
// need). The cargo target folder lives outside the clone so rebuilds and CI runs reuse it.
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
if (cargo.status !== 0) {
  console.log(
    '@duro/native: cargo is not installed; skipping the native build (parity tests need it).',
  );
  process.exit(0);
}

const env = {
  ...process.env,
  CARGO_TARGET_DIR: process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'duro-native-target'),
};
const profile = process.env.DURO_NATIVE_PROFILE === 'debug' ? [] : ['--release'];
const result = spawnSync('napi', ['build', '--platform', '--esm', ...profile], {
  stdio: 'inherit',
  env,
  shell: false,
});
process.exit(result.status ?? 1);
