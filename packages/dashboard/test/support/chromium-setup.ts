import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM } from './headless-chromium.js';

/**
 * vitest global setup: makes sure the machine's Chromium is there before the browser tests run.
 * On a Debian machine where the tests run as root (a fresh CI machine), Debian's package is
 * installed when it is missing, so the repository's test command needs nothing installed by
 * hand; elsewhere the browser tests say how to install it.
 */
export default function ensureChromium(): void {
  if (existsSync(CHROMIUM) || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return;
  console.log("dashboard tests: installing Debian's chromium for the browser tests");
  const quietly: ExecFileSyncOptions = { stdio: ['ignore', 'ignore', 'inherit'] };
  execFileSync('apt-get', ['update', '-qq'], quietly);
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    ...quietly,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
