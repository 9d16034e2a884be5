// The console's browser suites run in Debian's Chromium (/usr/bin/chromium). It is required in CI (.ci/run
// installs it); elsewhere a suite says plainly that it did not run.
import { existsSync } from 'node:fs';
import { describe } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';

export function describeWithChromium(title: string, fn: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(title, fn);
    return;
  }
  const message = `[browser] ${CHROMIUM} is missing (apt-get install -y chromium): the "${title}" suite did NOT run`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(message);
  describe.skip(title, fn);
}
