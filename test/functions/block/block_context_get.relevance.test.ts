// block_context_get by relevance: with a 199-page deciding appraisal listing hundreds of comparables'
// parcels in the file, the case's own parcel, plan, the Law and its section (named by the appeal and the
// response, and on the appraisal's opening page) come first, among the first 20 items; the comparables'
// parcels named once in passing come last, as one summary item with their count.
import { expect, it } from 'vitest';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk } from '../../harness/server.ts';

interface Item {
  section: string;
  id: string;
  title: string | null;
  text: string;
  source: { document_id: string; page: number } | null;
}

const PAGES = 199;
const OWN = 'גוש 6543 חלקה 21';
const PLAN = 'הר/2000';

/** The appraisal: its subject on page 1, then two comparables' parcels on each of the other pages. */
function appraisal(): string {
  const pages = [
    `שומה מכרעת\nהנכס נשוא השומה: ${OWN}, ברחוב הנרקיסים בהרצליה.\nהתכנית המשביחה: תכנית ${PLAN}.`,
  ];
  for (let p = 2; p <= PAGES; p++)
    pages.push(
      `עסקאות השוואה, עמוד ${p}.\nעסקה בגוש ${7000 + p} חלקה ${p} נמכרה בשנת 2021.\nעסקה נוספת בגוש ${8000 + p} חלקה ${p + 1} נמכרה בשנת 2022.`,
    );
  return pages.join('\f');
}

forEachStack('block_context_get (relevance)', DB_STACKS, (server) => {
  it('puts the case’s own parcel, plan and law first and summarises the comparables’ parcels', async () => {
    const s = server();
    const db = s.db.db;
    const caseId = await seedCase(db, 'לוי נ׳ הוועדה המקומית הרצליה');
    const filing = async (role: 'appeal' | 'response' | 'deciding_appraisal', title: string, text: string) =>
      seedDocument(db, {
        corpus: 'case',
        caseId,
        bytes: textBytes(text),
        declaredMediaType: 'text/plain',
        title,
        role,
      });
    await filing(
      'appeal',
      'כתב ערר',
      `כתב ערר\n1. העוררים הם הבעלים של ${OWN}.\n2. ההשבחה נובעת מתכנית ${PLAN}, לפי סעיף 196א לחוק התכנון והבנייה, התשכ"ה-1965.`,
    );
    await filing(
      'response',
      'כתב תשובה',
      `כתב תשובה\n1. המקרקעין, ${OWN}, הושבחו בתכנית ${PLAN}.\n2. חוק התכנון והבנייה, התשכ"ה-1965 חל על העניין.`,
    );
    const big = await filing('deciding_appraisal', 'שומה מכרעת', appraisal());
    expectOk(await s.call('analyst', 'reference_extract', { case_id: caseId, wait_ms: 10_000 }));

    for (const block of ['background', 'discussion']) {
      const items = expectOk<{ items: Item[] }>(
        await s.call('writer', 'block_context_get', { case_id: caseId, block, limit: 200 }),
      ).items;
      const first20 = items.slice(0, 20);
      const at = (re: RegExp) => first20.findIndex((i) => i.section === 'reference' && re.test(i.text));
      expect(at(/6543/), block).toBeGreaterThanOrEqual(0);
      expect(at(/2000/), block).toBeGreaterThanOrEqual(0);
      expect(at(/התכנון והבני/), block).toBeGreaterThanOrEqual(0);
      // The comparables' parcels: one summary item with their count, after every reference of the case.
      const refs = items.filter((i) => i.section === 'reference');
      const summary = refs.filter((i) => i.id === 'summary:parcel');
      expect(summary).toHaveLength(1);
      expect(summary[0]?.text).toMatch(new RegExp(`^${2 * (PAGES - 1)} parcel`));
      expect(refs.filter((i) => i.title === 'parcel' && i.source?.document_id === big.id)).toHaveLength(0);
      expect(refs.length).toBeLessThan(20);
      expect(refs.indexOf(summary[0] as Item)).toBe(refs.length - 1);
    }
  }, 120_000);
});
