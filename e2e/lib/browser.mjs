// Headless Chromium from Debian's package, driven by playwright-core (Playwright's own browser
// download cannot reach the network here). The flags keep Chromium from calling home: this
// machine refuses those connections, many at a time.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT } from './app.mjs';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);

export function chromiumPath() {
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) throw new Error(`no Chromium at ${CANDIDATES.join(', ')}: scripts/test-setup installs Debian's chromium`);
  return found;
}

export async function launchChromium() {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Where a test keeps its screenshots: e2e/output/screenshots/<name>.png. */
export function screenshotPath(name) {
  const folder = join(OUTPUT, 'screenshots');
  mkdirSync(folder, { recursive: true });
  return join(folder, `${name}.png`);
}
