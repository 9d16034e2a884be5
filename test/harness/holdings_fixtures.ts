// Seeds the precedent library fixture's documents as ready documents of their corpus (library, internal or
// style), in one file format, with no follow-ups run: the tools under test queue their own work.
import type { Db } from '../../src/db/types.ts';
import { type LibraryCorpus, libraryAnswers, libraryBytes } from '../fixtures/library/library.ts';
import { seedDocument } from './documents.ts';

const MEDIA = {
  txt: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

/** Seeds the named fixtures; returns name → document id. */
export async function seedLibrary(
  db: Db,
  names: readonly string[],
  format: 'txt' | 'pdf' | 'docx',
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const name of names) {
    const doc = libraryAnswers.documents[name];
    if (doc === undefined) throw new Error(`no fixture ${name}`);
    const corpus: LibraryCorpus = doc.corpus;
    const row = await seedDocument(db, {
      corpus,
      caseId: null,
      bytes: await libraryBytes(name, format),
      declaredMediaType: MEDIA[format],
      title: doc.title,
      filename: `${name}.${format}`,
    });
    if (row.status !== 'ready') throw new Error(`fixture ${name}.${format} did not extract: ${row.error}`);
    ids.set(name, row.id);
  }
  return ids;
}
