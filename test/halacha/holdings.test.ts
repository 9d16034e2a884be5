// The holding rules against the precedent library fixture's answers: recall and precision of at least 95%
// (printed on every run), no candidate from a paragraph that only summarises a party's claim, and the rules on
// small texts (a party's voice carried through its paragraph until the court speaks again).
import { describe, expect, it } from 'vitest';
import { extractHoldings } from '../../src/halacha/holdings.ts';
import { libraryAnswers, libraryNames, libraryPages } from '../fixtures/library/library.ts';
import { score, ws } from '../harness/scores.ts';

const readers = libraryNames.filter((n) => libraryAnswers.documents[n]?.corpus !== 'style');

describe('holding rules', () => {
  it('find the fixture’s holdings with recall and precision ≥ 95%, and none from a claim summary', async () => {
    const found: { page: number; text: string }[] = [];
    const wanted: { page: number; text: string }[] = [];
    const claims: string[] = [];
    for (const name of readers) {
      const doc = libraryAnswers.documents[name];
      if (doc === undefined) continue;
      const tag = (h: { page: number; text: string }) => ({ page: h.page, text: `${name}|${ws(h.text)}` });
      found.push(...extractHoldings(await libraryPages(name)).map(tag));
      wanted.push(...doc.holdings.map(tag));
      claims.push(...doc.claim_paragraphs.map((c) => `${name}|${ws(c.text)}`));
    }
    const s = score(found, wanted);
    console.log(
      `holdings (text): recall ${(100 * s.recall).toFixed(1)}% precision ${(100 * s.precision).toFixed(1)}% (${s.tp} found, ${s.fp} extra, ${s.fn} missed of ${wanted.length})`,
    );
    expect(wanted.length).toBeGreaterThanOrEqual(20);
    expect(claims.length).toBeGreaterThanOrEqual(10);
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.precision).toBeGreaterThanOrEqual(0.95);
    // No candidate overlaps a paragraph that only summarises a party's claim.
    for (const f of found) {
      const [doc, text] = f.text.split('|') as [string, string];
      for (const c of claims.filter((x) => x.startsWith(`${doc}|`))) {
        const claim = c.slice(doc.length + 1);
        expect(claim.includes(text) || text.includes(claim)).toBe(false);
      }
    }
  });

  it('keep a party’s voice through its paragraph until the court speaks again; take the whole paragraph', () => {
    const page = [
      'דיון',
      '1. לטענת העוררים, הכלל הוא שאין להתערב. לשיטתם אף לא אחת נפסק כך.',
      '2. המבקשת טוענת כי המבחן הוא שווי העסקה. אין בידינו לקבל טענה זו. המבחן הוא שווי השוק.',
      '3. ההלכה הקודמת בוטלה. אנו קובעים כי פגיעה קטנה היא סבירה.',
      '4. כפי שנקבע בעע"מ 1/20, ההיתר בטל.',
    ].join('\n');
    expect(extractHoldings([page]).map((h) => [h.cue, h.text])).toEqual([
      ['המבחן הוא', 'אין בידינו לקבל טענה זו. המבחן הוא שווי השוק.'],
      ['אנו קובעים', 'ההלכה הקודמת בוטלה. אנו קובעים כי פגיעה קטנה היא סבירה.'],
    ]);
  });

  it('skip every paragraph under a claims or background heading, whatever its words', () => {
    const page = [
      'רקע',
      '1. בהחלטה הקודמת נקבע כי העוררים ישלמו את ההיטל.',
      'טענות הצדדים',
      '1. הלכה היא כי יש לקבל את הערר.',
      'דיון והכרעה',
      '2. הלכה היא כי יש לדחות.',
    ].join('\n');
    expect(extractHoldings([page]).map((h) => h.text)).toEqual(['הלכה היא כי יש לדחות.']);
  });
});
