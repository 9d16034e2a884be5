// Tesseract's worker thread: tesseract.js's own Node worker script, run below the agents' thread in priority
// (on 2 cores a page being recognised would otherwise take the agents' share). On Linux a thread's nice
// value is its own; elsewhere, or when refused, the thread runs as it would have.
import { createRequire } from 'node:module';
import { constants, setPriority } from 'node:os';

try {
  setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
} catch {}
createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
