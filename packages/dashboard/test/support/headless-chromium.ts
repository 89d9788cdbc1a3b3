import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser; `DURO_CHROMIUM` names another. */
export const CHROMIUM = process.env.DURO_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Starts the machine's Chromium headless (never a downloaded one). Playwright gives each launch
 * a fresh profile folder of its own and removes it on close.
 * @throws {Error} saying how to install it when it is missing.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set DURO_CHROMIUM`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
