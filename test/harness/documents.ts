// Seeds documents the way the upload tools will: createDocument (sha256, sniffing, caps, ON CONFLICT)
// then extractAndIndexDocument. Real library code, no shortcuts into the tables.
import { eq } from 'drizzle-orm';
import { cases } from '../../src/db/schema/cases.ts';
import { type DocumentCorpus, type DocumentRow, documents } from '../../src/db/schema/documents.ts';
import type { Db } from '../../src/db/types.ts';
import { createDocument, extractAndIndexDocument, type NewDocument } from '../../src/documents/pipeline.ts';
import { type FixtureDocument, fixtureBytes, fixtureDocuments } from '../fixtures/hebrew/corpus.ts';

const MEDIA = {
  txt: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

/** A case row for documents to belong to (inserted directly: the case tools have their own tests). */
export async function seedCase(db: Db, title = 'ערר בדיקה'): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(cases).values({ id, caseNumber: `ערר T-${id.slice(0, 8)}/25`, title, createdBy: 'test' });
  return id;
}

export type SeedInput = Omit<NewDocument, 'createdBy' | 'title'> & { title?: string; createdBy?: string };

/** Creates a document from bytes and extracts it; returns the row as it is after extraction. */
export async function seedDocument(db: Db, input: SeedInput): Promise<DocumentRow> {
  const { document } = await createDocument(db, { title: 'מסמך', createdBy: 'test', ...input });
  await extractAndIndexDocument(db, document.id);
  const [row] = await db.select().from(documents).where(eq(documents.id, document.id));
  if (row === undefined) throw new Error('seeded document vanished');
  return row;
}

export const textBytes = (text: string) => new TextEncoder().encode(text);

/**
 * Seeds the Hebrew fixture corpus in the given file format. Case documents go to `caseId`; with `corpus`
 * every document goes to that one corpus instead (e.g. all eight into "style" for ranking among all).
 * Returns fixture name → document id.
 */
export async function seedFixtures(
  db: Db,
  options: { format: 'txt' | 'pdf' | 'docx'; caseId?: string; corpus?: Exclude<DocumentCorpus, 'case'> },
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const f of fixtureDocuments) {
    const corpus: DocumentCorpus = options.corpus ?? f.corpus;
    if (corpus === 'case' && options.caseId === undefined) continue;
    const row = await seedDocument(db, {
      ...metadata(f),
      corpus,
      caseId: corpus === 'case' ? (options.caseId ?? null) : null,
      bytes: await fixtureBytes(f.name, options.format),
      declaredMediaType: MEDIA[options.format],
      filename: `${f.name}.${options.format}`,
    });
    if (row.status !== 'ready') throw new Error(`fixture ${f.name} did not extract: ${row.error}`);
    ids.set(f.name, row.id);
  }
  return ids;
}

const metadata = (f: FixtureDocument) => ({
  title: f.title,
  number: f.number ?? null,
  decisionDate: f.decisionDate ?? null,
  court: f.court ?? null,
  committee: f.committee ?? null,
  parties: f.parties ?? null,
});
