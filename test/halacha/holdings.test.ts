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

describe('holdings by the structure of a ruling', () => {
  it('take the settled-law cues unless the sentence speaks of this case only', () => {
    const page = [
      '1. אין חולק כי ועדה מקומית אינה רשאית לסטות מהוראות תכנית בלי הליך של הקלה.',
      '2. אין חולק כי העוררים הגישו את הבקשה ביום 3.2.2022.',
      '3. נפסק לא אחת כי שיקול הדעת התכנוני נתון למוסדות התכנון.',
      '4. כידוע, מקדם דחייה משקף את הזמן עד מימוש הזכויות.',
      '5. הלכה מושרשת היא שהשומה נערכת לפי המצב התכנוני במועד הקובע.',
      '6. הכלל שנקבע בפסיקה הוא שאין לערוך שומה על זכויות ערטילאיות.',
      '7. ההלכה שנפסקה היא כי הנטל על הטוען לפגיעה.',
      '8. עמד על כך בית המשפט העליון, בציינו כי ההיטל נועד להשיב לציבור חלק מעליית השווי.',
      '9. מכאן שהעוררת בנתה בלי היתר.',
    ].join('\n');
    expect(extractHoldings([page]).map((h) => h.cue)).toEqual([
      'אין חולק כי',
      'נפסק לא אחת',
      'כידוע',
      'הלכה מושרשת היא',
      'הכלל שנקבע בפסיקה',
      'ההלכה שנפסקה היא',
      'עמד על כך',
    ]);
  });

  it('never take an order, the outcome or a closing paragraph, however it is cued', () => {
    const page = [
      '1. נקבע כי העוררים ישלמו הוצאות בסך 5,000 ש"ח.',
      '2. אנו קובעים כי השומה מוחזרת לשמאי המכריע.',
      '3. לפיכך הערר נדחה, והכלל הוא שכל צד יישא בהוצאותיו.',
      'סוף דבר',
      '4. הלכה היא כי יש לדחות ערר שהוגש באיחור.',
    ].join('\n');
    expect(extractHoldings([page])).toEqual([]);
  });

  it('read normative language and a supporting citation in the discussion part only', () => {
    const rules = [
      '1. יש לבחון כל בקשה להקלה לגופה, בהתאם למרקם הבנוי.',
      '2. רשות התכנון חייבת לשקול את השלכות ההיתר על החניה באזור.',
      '3. ההשבחה נמדדת במועד אישור התכנית ולא במועד המימוש. ראו עע"מ 9001/19.',
      '4. בענייננו, יש לקבל את הערר משום שהוועדה לא נימקה.',
      '5. ההיתר ניתן לפני שנתיים והבנייה הסתיימה.',
    ];
    const unheaded = ['החלטה', ...rules].join('\n');
    expect(extractHoldings([unheaded])).toEqual([]);
    const headed = ['דיון והכרעה', ...rules].join('\n');
    expect(extractHoldings([headed]).map((h) => [h.cue, h.text])).toEqual([
      ['יש ל', 'יש לבחון כל בקשה להקלה לגופה, בהתאם למרקם הבנוי.'],
      ['חייב', 'רשות התכנון חייבת לשקול את השלכות ההיתר על החניה באזור.'],
      ['ראו', 'ההשבחה נמדדת במועד אישור התכנית ולא במועד המימוש. ראו עע"מ 9001/19.'],
    ]);
  });

  it('keep a party’s claim out of the discussion part, and the signature line out of a holding', () => {
    const page = [
      'דיון',
      '1. לדידם של העוררים, יש לבטל את ההיתר. לשיטתם, ככלל אין לאשר הקלה בגובה.',
      '2. ב"כ המשיבה הוסיף כי על הוועדה לשמוע את השכנים.',
      '3. על מוסד התכנון לנמק את החלטתו בהתנגדות.',
      'ניתנה היום, 1.1.2024.',
    ].join('\n');
    expect(extractHoldings([page]).map((h) => h.text)).toEqual(['על מוסד התכנון לנמק את החלטתו בהתנגדות.']);
  });

  it('take the quotation a cue introduces, skip a question, and read «המבקשים» as this case’s parties', () => {
    const intro = "בערר 12/05 פלוני נ' הוועדה המקומית לתכנון ולבנייה חוף הים, נקבע כי:";
    const first = '"ועדת הערר לא תחליף את שיקול דעתו המקצועי של השמאי המכריע בשיקול דעתה שלה.';
    const last = 'היא תתערב בהכרעתו רק כאשר נפל בה פגם מהותי או טעות משפטית גלויה על פניה."';
    const quoted = [intro, '', first, '', last, '', 'ההחלטה ההיא ניתנה בהרכב מלא של חברי הוועדה.'].join('\n');
    expect(extractHoldings([quoted]).map((h) => h.text)).toEqual([`${intro}\n\n${first}\n\n${last}`]);
    const asked = 'מתי רשאית הוועדה לבטל היתר? כידוע, היתר שניתן על יסוד מצג כוזב ניתן לביטול.';
    expect(extractHoldings([asked]).map((h) => h.text)).toEqual([
      'כידוע, היתר שניתן על יסוד מצג כוזב ניתן לביטול.',
    ]);
    expect(extractHoldings(['אין חולק כי בחוזה בין המבקשים לבין הרשות נכללה תניית שיפוי.'])).toEqual([]);
  });
});
