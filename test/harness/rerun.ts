// Runs an extractor's job handler again for a document, as a revived or retried job would: the way the tests
// show that a re-run keeps what it found (same rows) and what agents decided.

import type { Db } from '../../src/db/types.ts';
import type { Extractor } from '../../src/extractors/framework.ts';
import { extractorJob } from '../../src/extractors/framework.ts';

export async function rerun(db: Db, extractor: Extractor, documentId: string): Promise<void> {
  await extractorJob(extractor)(
    {
      id: crypto.randomUUID(),
      kind: extractor.kind,
      attempt: 1,
      maxAttempts: 5,
      payload: { document_id: documentId, version: extractor.version },
      subject: `document:${documentId}`,
    },
    {
      db,
      log: { info() {}, warn() {}, error() {} },
      now: () => new Date(),
      signal: new AbortController().signal,
    },
  );
}
