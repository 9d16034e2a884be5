// Statutes, regulations and sections as documents cite them: keys by canonical name and year in every quote
// and dash form, sections with what follows them, and the abbreviation מס' never taken for a section.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractReferences } from '../../src/analysis/references.ts';
import { findSections, findStatutes, gregorianYearOf } from '../../src/legal/statutes.ts';

describe('statutes and sections', () => {
  it('keys a statute by its canonical name and year, whatever the spelling, quote and dash', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('"', '״', '”', "''"),
        fc.constantFrom('-', '–', '־', ' - '),
        fc.constantFrom('הבנייה', 'הבניה'),
        fc.boolean(),
        (quote, dash, spelling, comma) => {
          const text = `לפי חוק התכנון ו${spelling}${comma ? ',' : ''} התשכ${quote}ה${dash}1965 ועוד`;
          expect(
            findStatutes(text).map((s) => s.key),
            text,
          ).toEqual(['חוק התכנון והבניה 1965']);
        },
      ),
    );
    expect(gregorianYearOf('התשכ"ה')).toBe(1965);
    expect(findStatutes('חוק הפרשנות, התשמ"א')[0]?.key).toBe('חוק הפרשנות 1981');
    const regulation = findStatutes('תקנות התכנון והבנייה (בקשה להיתר, תנאיו ואגרות), התש"ל-1970')[0];
    expect(regulation).toMatchObject({
      kind: 'regulation',
      key: 'תקנות התכנון והבניה (בקשה להיתר, תנאיו ואגרות) 1970',
    });
  });

  it("reads section paths and lists, and never מס' as a section", () => {
    const paths = (text: string) => findSections(text).flatMap((s) => s.paths.map((p) => p.path));
    expect(paths('סעיף 197 וס׳ 152(א)(2), סעיפים 196א ו-197')).toEqual(['197', '152(א)(2)', '196א', '197']);
    expect(paths("ערר מס' 1024/25 ותיק מס׳ 12")).toEqual([]);
    expect(findSections('סעיף 4(1) לתוספת השלישית לחוק')[0]).toMatchObject({
      schedule: 'התוספת השלישית',
      follows: 'law',
    });
    expect(findSections('מתקנה 2(19) לתקנות')[0]).toMatchObject({
      of: 'regulations',
      follows: 'regulations',
    });
  });

  it('gives a bare «לחוק» the statute named last, else the Planning and Building Law', () => {
    const keys = (text: string) =>
      extractReferences([text])
        .filter((r) => r.kind === 'section')
        .map((r) => r.key);
    expect(keys('סעיף 197 לחוק')).toEqual(["חוק התכנון והבניה 1965 ס' 197"]);
    expect(keys('לפי חוק מיסוי מקרקעין (שבח ורכישה), התשכ"ג-1963, וסעיף 49 לחוק')).toEqual([
      "חוק מיסוי מקרקעין (שבח ורכישה) 1963 ס' 49",
    ]);
    // A section before any statute is named: the Planning and Building Law, as the rule says.
    expect(keys('סעיף 49 לחוק. חוק מיסוי מקרקעין (שבח ורכישה), התשכ"ג-1963')).toEqual([
      "חוק התכנון והבניה 1965 ס' 49",
    ]);
    // Across pages, in reading order.
    const refs = extractReferences(['חוק הפרשנות, התשמ"א-1981', 'סעיף 10 לחוק']);
    expect(refs.find((r) => r.kind === 'section')).toMatchObject({ key: "חוק הפרשנות 1981 ס' 10", page: 2 });
  });

  it('finds statutes in niqqud-pointed text with offsets into the original', () => {
    const text = 'לְפִי חוֹק התכנון והבנייה, התשכ"ה-1965';
    const [ref] = extractReferences([text]);
    expect(ref?.key).toBe('חוק התכנון והבניה 1965');
    expect(text.slice(ref?.start, ref?.end)).toBe(ref?.text);
    expect(ref?.text.startsWith('חוֹק')).toBe(true);
  });

  it('never throws on garbage (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'חוקתקנותסעיף ס\'"()1234567890,-לה'.split('')), maxLength: 60 }),
        (text) => {
          for (const r of extractReferences([text])) expect(text.slice(r.start, r.end)).toBe(r.text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
