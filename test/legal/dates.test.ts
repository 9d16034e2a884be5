// Dates to one ISO date: every written form of the same day gives the same value, Hebrew-calendar dates
// convert through ICU, and garbage is no date (never an exception).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDates, hebrewDateToIso, hebrewNumeral, isoDate, normalizeDate } from '../../src/legal/dates.ts';

const GREG = [
  'ינואר',
  'פברואר',
  'מרץ',
  'אפריל',
  'מאי',
  'יוני',
  'יולי',
  'אוגוסט',
  'ספטמבר',
  'אוקטובר',
  'נובמבר',
  'דצמבר',
];

describe('dates', () => {
  it('reads the Gregorian forms, day first', () => {
    const table: [string, string | null][] = [
      ['3.2.2026', '2026-02-03'],
      ['03/02/2026', '2026-02-03'],
      ['3-2-2026', '2026-02-03'],
      ['3.2.26', '2026-02-03'],
      ['2026-02-03', '2026-02-03'],
      ['3 בפברואר 2026', '2026-02-03'],
      ['3 פברואר, 2026', '2026-02-03'],
      ['30.2.2026', null],
      ['13/13/2026', null],
      ['1.2.3.2026', null],
      ['', null],
    ];
    for (const [text, iso] of table) expect(normalizeDate(text), text).toBe(iso);
  });

  it('reads Hebrew-calendar dates with every quote mark', () => {
    expect(hebrewNumeral('כ"א')).toBe(21);
    expect(hebrewNumeral('התשפ"ו')).toBe(5786 - 5000 + 5);
    for (const q of ["'", '׳', '’']) {
      expect(normalizeDate(`ג${q} בשבט התשפ"ו`)).toBe('2026-01-21');
    }
    for (const q of ['"', '״', '”']) expect(normalizeDate(`כ${q}א בטבת התשפ${q}ו`)).toBe('2026-01-10'); // 21 Tevet: 3 Shevat is 21.1.2026 and Tevet has 29 days
    expect(hebrewDateToIso("א'", 'תשרי', 'התשפ"ו')).toBe('2025-09-23');
    expect(normalizeDate("א' באדר ב' התשפ\"ד")).toBe('2024-03-11');
    expect(normalizeDate('ל\' בשבט התשפ"ו')).toBe('2026-02-17');
    expect(normalizeDate('ל\' בטבת התשפ"ו')).toBeNull(); // Tevet has 29 days
  });

  it('finds dates in running text with offsets', () => {
    const text = 'ניתן היום, ג\' בשבט התשפ"ו (21.1.2026), בהעדר הצדדים. המועד הקובע: 01/03/2019.';
    const found = findDates(text);
    expect(found.map((f) => f.iso)).toEqual(['2026-01-21', '2026-01-21', '2019-03-01']);
    for (const f of found) expect(text.slice(f.start, f.end)).toBe(f.text);
  });

  it('gives one value for every written form of the same day (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01'), max: new Date('2060-12-31'), noInvalidDate: true }),
        (d) => {
          const y = d.getUTCFullYear();
          const m = d.getUTCMonth() + 1;
          const day = d.getUTCDate();
          const iso = isoDate(y, m, day);
          const p = (n: number) => String(n).padStart(2, '0');
          for (const form of [
            `${day}.${m}.${y}`,
            `${p(day)}/${p(m)}/${y}`,
            `${day}-${m}-${y}`,
            `${y}-${p(m)}-${p(day)}`,
            `${day} ב${GREG[m - 1]} ${y}`,
          ]) {
            expect(normalizeDate(form), form).toBe(iso);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary text, and finds only real dates in it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        for (const f of findDates(text)) expect(f.iso).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }),
      { numRuns: 500 },
    );
  });
});
