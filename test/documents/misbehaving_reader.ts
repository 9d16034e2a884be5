// A reader thread for test/documents/reader_pool.test.ts: the real reader (readPages), except for text
// documents that ask it to misbehave by their first word — HANG never answers (a parser caught in a loop),
// CRASH ends the thread, HOG allocates until the thread's heap cap stops it.
import { readPages } from '../../src/documents/pages.ts';
import { serveReads } from '../../src/documents/reader_thread.ts';

serveReads(async (bytes, mediaType) => {
  const head = mediaType === 'text/plain' ? new TextDecoder().decode(bytes.subarray(0, 8)) : '';
  if (head.startsWith('HANG')) for (;;);
  if (head.startsWith('CRASH')) process.exit(7);
  if (head.startsWith('HOG')) {
    const kept: string[][] = [];
    for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${kept.length}`));
  }
  return readPages(bytes, mediaType);
});
