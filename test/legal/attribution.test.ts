// The statute grammar on forms real decisions use: one key for every spelling of a statute, years in any
// calendar (or none), orders and regulations, short names and «(להלן: …)» definitions; a section of a statute
// no reader knows is never filed under the Planning and Building Law; a plan's or a contract's clause is not a
// section. Fixtures are sentences written for these tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractReferences } from '../../src/analysis/references.ts';
import { findBareStatutes, statuteName } from '../../src/legal/statute_names.ts';
import { findSections, findStatutes } from '../../src/legal/statutes.ts';

const PL = 'חוק התכנון והבניה 1965';
const keysOf = (text: string, kind: string) =>
  extractReferences([text])
    .filter((r) => r.kind === kind)
    .map((r) => r.key);
const statutesOf = (text: string) =>
  extractReferences([text])
    .filter((r) => r.kind === 'statute' || r.kind === 'regulation')
    .map((r) => r.key);

describe('statute names', () => {
  it('gives the Planning and Building Law one key in every spelling, and 1965 whatever year is misprinted', () => {
    for (const written of [
      'חוק התכנון ובניה, התשכ"ה-1965',
      'חוק התיכנון והבנייה, תשכ"ה-1965',
      'חוק התכנון והבניה [נוסח משולב], התשכ"ה-1965',
      'חוק התכנון והבניה, תשכ"ה-1964',
      'חוק התכנון והבנייה, 1965',
    ]) {
      expect(
        findStatutes(`הערר הוגש לפי ${written} ביום שני.`).map((s) => s.key),
        written,
      ).toEqual([PL]);
    }
    expect(statuteName('חוק התכנון ובניה')).toBe('חוק התכנון והבניה');
  });

  it('reads a year given in the Hebrew calendar only, the Gregorian only, or both', () => {
    expect(findStatutes('לפי חוק המקרקעין, התשכ"ט ועוד')[0]?.key).toBe('חוק המקרקעין 1969');
    expect(findStatutes('לפי חוק המקרקעין, 1969 ועוד')[0]?.key).toBe('חוק המקרקעין 1969');
    expect(findStatutes('מכוח פקודת הדרכים (שיפור), 1943 נעשה')[0]?.key).toBe('פקודת הדרכים (שיפור) 1943');
    // A number after prose is not a year: no comma, dash or parenthesis before it.
    expect(findStatutes('לפי חוק המקרקעין נקבעו 1969 דונם')).toEqual([]);
  });

  it('reads orders and regulations as statutes of their own', () => {
    const [order] = findStatutes('ראו צו התכנון והבניה (מבנים ארעיים), התשע"ה-2015 לעניין זה');
    expect(order).toMatchObject({
      kind: 'regulation',
      word: 'צו',
      key: 'צו התכנון והבניה (מבנים ארעים) 2015',
    });
  });

  it('reads a statute named without a year to the end of its name, never into the prose after it', () => {
    const names = (t: string) => findBareStatutes(t).map((s) => s.name);
    expect(names('כמצוות פקודת העיריות [נוסח חדש] בעניין זה')).toEqual(['פקודת העיריות']);
    expect(names('לפי חוק המקרקעין קובע בית המשפט')).toEqual(['חוק המקרקעין']);
    expect(names('מכוח חוק בתי המשפט ובסמכותו')).toEqual(['חוק בתי המשפט']);
    expect(names('לפי חוק העזר לעפולה (שילוט) שהותקן')).toEqual(['חוק העזר לעפולה (שילוט)']);
    expect(names('חוק זה וחוק הוא')).toEqual([]);
  });

  it('takes a short name for the statute named in full before it', () => {
    const text =
      'ההפקעה נעשתה לפי פקודת הקרקעות (רכישה לצרכי ציבור), 1943. ' +
      'ההודעה פורסמה לפי סעיף 5 לפקודת הקרקעות, ולפי סעיף 7 לפקודה.';
    expect([...new Set(statutesOf(text))]).toEqual(['פקודת הקרקעות (רכישה לצרכי ציבור) 1943']);
    expect(keysOf(text, 'section')).toEqual([
      "פקודת הקרקעות (רכישה לצרכי ציבור) 1943 ס' 5",
      "פקודת הקרקעות (רכישה לצרכי ציבור) 1943 ס' 7",
    ]);
  });

  it('gives one key to every written form of the same statute (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('התכנון והבניה', 'התכנון והבנייה', 'התכנון ובניה', 'התיכנון והבניה', 'התכנון ובנייה'),
        fc.constantFrom('', ' [נוסח משולב]'),
        fc.constantFrom(', התשכ"ה-1965', ', תשכ״ה–1965', ', התשכ"ה', ', 1965', ' תשכ"ה - 1964', ''),
        fc.constantFrom('לפי ', 'ב', 'ול', 'מכוח '),
        (name, note, year, before) => {
          const text = `העתירה הוגשה ${before}חוק ${name}${note}${year} בשעה טובה.`;
          expect(new Set(statutesOf(text)), text).toEqual(new Set([PL]));
        },
      ),
    );
  });
});

describe('sections and their statute', () => {
  it('files a section of an unread statute under that statute, or under none, never under the Planning Law', () => {
    expect(keysOf('החיוב נעשה לפי סעיף 170ג(ו) לפקודת העיריות.', 'section')).toEqual([
      "פקודת העיריות ס' 170ג(ו)",
    ]);
    expect(keysOf('השיתוף נקבע בסעיף 8 לחוק המקרקעין.', 'section')).toEqual(["חוק המקרקעין ס' 8"]);
    // An ordinance the text points back to without naming any: no statute.
    expect(keysOf('וכן לפי סעיף 12 לפקודה.', 'section')).toEqual(["ס' 12"]);
  });

  it('reads «(להלן: החוק)» and the bare words after it as the statute defined', () => {
    const text =
      'לפי חוק הבוררות, התשכ"ח-1968 הוחלו הכללים. לפי חוק התכנון והבניה, התשכ"ה-1965 (להלן: "החוק") ' +
      'ובהתאם לחוק הבוררות האמור, נבחן את סעיף 198 לחוק ואת סעיף 12 לחוק הבוררות.';
    expect(keysOf(text, 'section')).toEqual([`${PL} ס' 198`, "חוק הבוררות 1968 ס' 12"]);
  });

  it("reads «סע'» and a letter written apart as one path", () => {
    const paths = (t: string) => findSections(t).flatMap((s) => s.paths.map((p) => p.path));
    expect(paths("כאמור בסע' 197 לחוק")).toEqual(['197']);
    expect(paths("ראו סעיף 198 י' לחוק")).toEqual(['198(י)']);
    expect(paths('לפי סעיף12(א) לחוק')).toEqual(['12(א)']);
  });

  it("is no section of a statute when it is a plan's, a contract's or a decision's clause", () => {
    for (const text of [
      'כאמור בסעיף 4.4 לתקנון התכנית החלה.',
      'סעיף 11 לתמ"א 38 קובע זכויות, והוראת סעיף 13 מסדירה חיזוק.',
      'סעיף 64 לתכנית המתאר הישנה קובע גובה.',
      'כאמור בסעיף 6 להחלטת היו"ר מאותו יום.',
      "ר' סעיף 31 לכתב הערעור.",
      'לפי סעיף 3 להסכם בין הצדדים.',
    ]) {
      expect(keysOf(text, 'section'), text).toEqual([]);
    }
    // A statute named between the plan's clause and the next section: the next one is the statute's again.
    expect(keysOf('סעיף 11 לתמ"א 38 חל. לפי חוק התכנון והבניה, סעיף 145 חל גם הוא.', 'section')).toEqual([
      `${PL} ס' 145`,
    ]);
  });
});

describe('the grammar on prose', () => {
  const WORDS = [
    'הוועדה',
    'שמעה',
    'את',
    'הצדדים',
    'ביום',
    'והחליטה',
    'כי',
    'הבקשה',
    'נדחית',
    'המבנה',
    'הישן',
    'עומד',
    'ברחוב',
    'הרצל',
    'מזה',
    'שנים',
    'רבות',
    'השכנים',
    'התנגדו',
    'לבנייה',
    'בשל',
    'הצל',
    'והרעש',
    'אשר',
    'יגרמו',
    'לדבריהם',
    'ואולם',
    'לא',
    'הוכח',
    'דבר',
    'מכך',
    'בעניין',
    'קומות',
    'ובקומת',
    'הקרקע',
    'מספר',
  ];
  const prose = fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 99_999 }).map(String) },
        { weight: 1, arbitrary: fc.constantFrom(',', '.', ';', '(', ')', ':', '-', '"') },
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(' '));

  it('finds nothing in Hebrew prose that names no statute, plan or parcel, and never throws (property)', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(extractReferences([text]), text).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe('more statute forms', () => {
  it('corrects an official name written slightly off', () => {
    expect(
      findStatutes(
        'לפי תקנות התכנון והבנייה (חישוב שטחים ואחוזי בנייה בתכניות עם היתרים), התשנ"ב-1992 נקבע',
      )[0]?.key,
    ).toBe('תקנות התכנון והבניה (חישוב שטחים ואחוזי בניה בתכניות ובהיתרים) 1992');
  });

  it('reads a Basic Law by its name, with a colon or a dash', () => {
    const names = (t: string) => findBareStatutes(t).map((s) => s.name);
    expect(names('נפגעה זכות הקניין לפי חוק יסוד: כבוד האדם וחירותו ולפי חוק-יסוד: חופש העיסוק')).toEqual([
      'חוק יסוד: כבוד האדם וחירותו',
      'חוק יסוד: חופש העיסוק',
    ]);
  });
});
