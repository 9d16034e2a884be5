// The researcher's questions (fixtures/researcher.ts): every document of the set in one corpus, each question
// asked as a tool asks it, and the share whose document is among the top 3 documents, per group. Prints the
// table; each group must reach its floor. On PGlite and the local PostgreSQL.
import { expect, it } from 'vitest';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { searchChunks } from '../../src/search/rank.ts';
import { forEachDb } from '../harness/databases.ts';
import { seedDocument, textBytes } from '../harness/documents.ts';
import { type QuestionGroup, researchDocuments, researchQuestions } from './fixtures/researcher.ts';

/** The share of each group's questions that must find their document in the top 3. */
const FLOOR: Record<QuestionGroup, number> = { spelling: 1, thesaurus: 0.9, numbers: 1 };

forEachDb('search: the researcher’s questions', (getDb, kind) => {
  it('finds the document of each question in the top 3, per group at least its floor', async () => {
    const { db } = getDb();
    const names = new Map<string, string>();
    for (const d of researchDocuments) {
      const row = await seedDocument(db, {
        corpus: 'library',
        caseId: null,
        title: d.title,
        number: d.number,
        bytes: textBytes(d.pages.join('\f')),
        declaredMediaType: 'text/plain',
        filename: `${d.name}.txt`,
      });
      names.set(row.id, d.name);
    }
    const score = new Map<QuestionGroup, { asked: number; found: number; fuzzy: number }>();
    const misses: string[] = [];
    for (const question of researchQuestions) {
      const hits = await searchChunks(db, { corpus: 'library' }, analyzeQuery(question.query), {
        limit: 30,
        offset: 0,
      });
      const top = [...new Set(hits.map((h) => names.get(h.documentId)))].slice(0, 3);
      const s = score.get(question.group) ?? { asked: 0, found: 0, fuzzy: 0 };
      s.asked++;
      if (hits.some((h) => h.fuzzy)) s.fuzzy++;
      if (top.includes(question.expected)) s.found++;
      else
        misses.push(
          `${question.group}: ${question.query} → ${top.join(', ')}; expected ${question.expected}`,
        );
      score.set(question.group, s);
    }
    const rows = [...score].map(
      ([group, s]) =>
        `| ${group} | ${s.asked} | ${s.found} | ${((100 * s.found) / s.asked).toFixed(0)}% | ${s.fuzzy} |`,
    );
    console.log(
      [
        `top-3 accuracy (${kind})`,
        '| group | questions | top 3 | accuracy | fuzzy |',
        '| --- | --- | --- | --- | --- |',
        ...rows,
        ...misses.map((m) => `  miss ${m}`),
      ].join('\n'),
    );
    expect(researchQuestions.length).toBeGreaterThanOrEqual(40);
    for (const [group, s] of score)
      expect(s.found / s.asked, `${group}: ${misses.join(' | ')}`).toBeGreaterThanOrEqual(FLOOR[group]);
    // Spelling variants are exact matches, never the misspelling fallback.
    expect(score.get('spelling')?.fuzzy).toBe(0);
  });
});
