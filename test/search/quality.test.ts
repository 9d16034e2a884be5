// Search quality on the Hebrew fixtures: for every question with a known answer, the right document is
// among the top 3 documents. Once with all eight documents in one corpus (ranking among all of them), and
// per corpus as deployed; from text, PDF and DOCX sources alike. On PGlite and the local PostgreSQL.
import { expect, it } from 'vitest';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { searchChunks } from '../../src/search/rank.ts';
import { fixtureDocuments, fixtureQuestions } from '../fixtures/hebrew/corpus.ts';
import { forEachDb } from '../harness/databases.ts';
import { seedCase, seedFixtures } from '../harness/documents.ts';

/** The distinct documents of the hits, in rank order. */
const rankedDocuments = (hits: { documentId: string }[]) => [...new Set(hits.map((h) => h.documentId))];

forEachDb('search quality on the Hebrew fixtures', (getDb) => {
  for (const format of ['txt', 'pdf', 'docx'] as const) {
    it(`puts the right document in the top 3 for every question, all eight in one corpus (${format})`, async () => {
      const { db } = getDb();
      // Each format in its own corpus slot would collide on bytes only within a corpus; txt/pdf/docx differ.
      const ids = await seedFixtures(db, { format, corpus: 'style' });
      const names = new Map([...ids].map(([name, id]) => [id, name]));
      const misses: string[] = [];
      for (const q of fixtureQuestions) {
        const hits = await searchChunks(db, { corpus: 'style' }, analyzeQuery(q.query), {
          limit: 30,
          offset: 0,
        });
        const top = rankedDocuments(hits)
          .filter((id) => names.has(id))
          .slice(0, 3)
          .map((id) => names.get(id));
        if (!top.includes(q.expected))
          misses.push(`${q.query} (${q.why}) → ${top.join(', ')}; expected ${q.expected}`);
      }
      expect(misses).toEqual([]);
    });
  }

  it('finds each question’s document first within its own corpus, and nothing of other corpora', async () => {
    const { db } = getDb();
    const caseId = await seedCase(db, 'היטל השבחה — הרצל 12');
    const ids = await seedFixtures(db, { format: 'pdf', caseId });
    const corpusOf = new Map(fixtureDocuments.map((f) => [f.name, f.corpus]));
    for (const q of fixtureQuestions) {
      const corpus = corpusOf.get(q.expected);
      if (corpus === undefined) throw new Error(`unknown fixture ${q.expected}`);
      const filter = corpus === 'case' ? { corpus, caseId } : { corpus };
      const hits = await searchChunks(db, filter, analyzeQuery(q.query), { limit: 10, offset: 0 });
      const docs = rankedDocuments(hits);
      const allowed = new Set(
        fixtureDocuments.filter((f) => f.corpus === corpus).map((f) => ids.get(f.name)),
      );
      expect(
        docs.every((d) => allowed.has(d)),
        q.query,
      ).toBe(true);
      expect(docs[0], q.query).toBe(ids.get(q.expected));
    }
  });
});
