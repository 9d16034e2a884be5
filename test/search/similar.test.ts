// Decisions like a case (like_case_id): the case's distinctive terms by rarity, never the boilerplate of every
// file or the appraisal's comparable transactions, and never the case's own final decision. On both databases.
import { expect, it } from 'vitest';
import { cases } from '../../src/db/schema/cases.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { searchChunks } from '../../src/search/rank.ts';
import { likeCaseQuery, ownDecisions } from '../../src/search/similar.ts';
import { forEachDb } from '../harness/databases.ts';
import { seedDocument, textBytes } from '../harness/documents.ts';
import { researchDocuments } from './fixtures/researcher.ts';

/** The case file whose decision is «deciding-appraiser» (ערר 3301/21), in its own words. */
const APPEAL =
  'כתב ערר. העוררת, חברת לבנון בע"מ, מגישה ערר על שומת השמאי המכריע. דהיינו, לטענתה השמאי המכריע טעה כשקבע ' +
  'מקדם סחירות נמוך לנכס שבבעלות משותפת, וטעה בקביעת המועד הקובע, שהוא מועד אישור התכנית ג/17760. הנכס ' +
  'נמצא בגוש 18001 חלקה 4 ברחוב הגפן. מקדם הסחירות צריך להיות גבוה בהרבה בשל היעדר דרך גישה.';
const APPRAISAL = [
  'שומה מכרעת. התבקשתי לקבוע את ההשבחה בגוש 18001 חלקה 4. המועד הקובע הוא יום אישור התכנית.',
  'עסקאות השוואה:',
  'גוש 18020 חלקה 7, ברחוב הזית 3, נמכר ביום 01.02.2014 ב-1,200,000 ש"ח, 120 מ"ר',
  'גוש 18020 חלקה 9, ברחוב הזית 5, נמכרה ביום 05.06.2014 ב-980,000 ש"ח, 95 מ"ר',
  'גוש 18033 חלקה 2, ברחוב התאנה 12, נמכר ביום 11.11.2013 ב-1,450,000 ש"ח, 140 מ"ר',
  'מקדם סחירות של עשרה אחוזים מתאים לבעלות משותפת.',
].join('\n');

forEachDb('search: decisions like a case', (getDb) => {
  it('builds the query from distinctive terms and leaves out the case’s own final decision', async () => {
    const { db } = getDb();
    const names = new Map<string, string>();
    for (const d of researchDocuments) {
      const row = await seedDocument(db, {
        corpus: 'internal',
        caseId: null,
        title: d.title,
        number: d.number,
        bytes: textBytes(d.pages.join('\f')),
        declaredMediaType: 'text/plain',
      });
      names.set(row.id, d.name);
    }
    const id = crypto.randomUUID();
    const caseNumber = 'ערר 3301-21';
    await db.insert(cases).values({
      id,
      caseNumber,
      title: 'לבנון נגד הוועדה המקומית',
      practiceArea: 'betterment_levy',
      createdBy: 'test',
    });
    await seedDocument(db, {
      corpus: 'case',
      caseId: id,
      role: 'appeal',
      bytes: textBytes(APPEAL),
      declaredMediaType: 'text/plain',
    });
    await seedDocument(db, {
      corpus: 'case',
      caseId: id,
      role: 'deciding_appraisal',
      bytes: textBytes(APPRAISAL),
      declaredMediaType: 'text/plain',
    });
    const query = await likeCaseQuery(db, { id, title: 'לבנון', practiceArea: 'betterment_levy' });
    expect(query).not.toBeNull();
    const words = (query?.words ?? []).map((w) => w.surface);
    // Boilerplate and the comparables' streets, blocks and sales are not what the case is about.
    for (const noise of ['דהיינו', 'גוש', 'חלקה', 'נמכר', 'ברחוב', 'הזית', 'התאנה', '18020', '18033'])
      expect(words, noise).not.toContain(analyzeQuery(noise).words[0]?.surface);
    // Its substance is: the coefficient, the plan and the determining date.
    expect(words).toEqual(expect.arrayContaining(['סחירות', '17760']));
    // The own decision is ערר 3301/21, however the case writes its number.
    const own = await ownDecisions(db, { id, caseNumber });
    expect(own.map((d) => names.get(d))).toEqual(['deciding-appraiser']);
    const hits = await searchChunks(db, { corpus: 'internal', exclude: own }, query ?? analyzeQuery(''), {
      limit: 20,
      offset: 0,
    });
    const ranked = [...new Set(hits.map((h) => names.get(h.documentId)))];
    expect(ranked).not.toContain('deciding-appraiser');
    // The genuinely similar decision: a deciding appraiser's assessment of the levy, coefficients.
    expect(ranked[0]).toBe('deferral');
    // Without the exclusion, the own decision would have come first: the test can fail.
    const all = await searchChunks(db, { corpus: 'internal' }, query ?? analyzeQuery(''), {
      limit: 20,
      offset: 0,
    });
    expect(names.get(all[0]?.documentId ?? '')).toBe('deciding-appraiser');
  });
});
