// Tesseract's worker thread: tesseract.js's own Node worker script, run below the agents' thread in priority.
import { createRequire } from 'node:module';
import { lowerThreadPriority } from '../thread_priority.ts';

lowerThreadPriority();
createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
