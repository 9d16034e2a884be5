// Plan numbers to one key: the national, outline and local forms in every quote and dash form; appeal
// numbers and phone numbers are not plans; garbage is no plan, never an exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPlans, normalizePlan } from '../../src/legal/plans.ts';

const QUOTES = ['"', '״', '”', "'", '׳', ''];
const DASHES = ['-', '–', '־'];

describe('plan numbers', () => {
  it('reads each form to its key', () => {
    const table: [string, string | null][] = [
      ['101-0456789', '101-0456789'],
      ['101–0456789', '101-0456789'],
      ['תמ"א 38', 'תמ"א 38'],
      ['תמא/38', 'תמ"א 38'],
      ['תמ״א 35', 'תמ"א 35'],
      ['תמ”מ 3/21', 'תמ"מ 3/21'],
      ['הצ/1-4/1250', 'הצ/1-4/1250'],
      ['הצ/1–4/1250', 'הצ/1-4/1250'],
      ['גז/1234', 'גז/1234'],
      ['רע/מק/2012', 'רע/מק/2012'],
      ['כס/1/555/א', 'כס/1/555/א'],
      ['052-1234567', null],
      ['תב"ע', null],
      ['', null],
    ];
    for (const [text, key] of table) expect(normalizePlan(text), text).toBe(key);
  });

  it('finds plans in running text, not appeal numbers, with offsets', () => {
    const text = 'ערר מס\' בב/6010/16 עוסק בתכנית בב/1234, בתמ"א 38 ו-גז/55; טלפון 052-1234567.';
    const found = findPlans(text);
    expect(found.map((p) => p.key)).toEqual(['בב/1234', 'תמ"א 38', 'גז/55']);
    for (const p of found) expect(text.slice(p.start, p.end)).toBe(p.text);
  });

  it('gives one key for every written form of the same plan (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 999 }),
        fc.integer({ min: 0, max: 9_999_999 }),
        fc.constantFrom(...DASHES),
        (district, serial, dash) => {
          const digits = String(serial).padStart(7, '0');
          expect(normalizePlan(`${district}${dash}${digits}`)).toBe(`${district}-${digits}`);
          expect(findPlans(`לפי תכנית ${district}${dash}${digits} שאושרה`)[0]?.key).toBe(
            `${district}-${digits}`,
          );
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('א', 'מ'),
        fc.integer({ min: 1, max: 99 }),
        fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
        fc.constantFrom(...QUOTES),
        fc.constantFrom(' ', '/', '', ' /'),
        (last, n, amendment, quote, gap) => {
          const number = amendment === undefined ? `${n}` : `${n}/${amendment}`;
          const key = `תמ"${last} ${number}`;
          expect(normalizePlan(`תמ${quote}${last}${gap}${number}`), `${quote}|${gap}`).toBe(key);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('הצ', 'גז', 'כס', 'רע/מק', 'תא/מק'),
        fc.array(fc.integer({ min: 1, max: 9999 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...DASHES),
        (prefix, parts, dash) => {
          const written = `${prefix}/${parts.join(dash)}`;
          expect(normalizePlan(written), written).toBe(`${prefix}/${parts.join('-')}`);
        },
      ),
    );
  });

  it('never throws on garbage, and every plan it finds is where it says (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'תמא"׳/-–0123456789 הצגזבב'.split('')), maxLength: 30 }),
        (text) => {
          for (const p of findPlans(text)) expect(text.slice(p.start, p.end)).toBe(p.text);
          normalizePlan(text);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(fc.property(fc.string(), (text) => void findPlans(text)));
  });
});
