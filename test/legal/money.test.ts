// Money to agorot: every written form of the same amount gives one integer; garbage is no amount, never an
// exception; offsets point at the text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agorotOf, findMoney, formatShekels, normalizeMoney } from '../../src/legal/money.ts';

const QUOTES = ['"', '״', '”', "''", '׳׳'];
const grouped = (n: number) => n.toLocaleString('en-US');

/** The ways a document may write a whole number of shekels (and the agorot, when there are some). */
function forms(agorot: number, quote: string): string[] {
  const shekels = Math.trunc(agorot / 100);
  const cents = agorot % 100;
  const sh = `ש${quote}ח`;
  const exact = cents === 0 ? grouped(shekels) : `${grouped(shekels)}.${String(cents).padStart(2, '0')}`;
  const plain = exact.replace(/,/g, '');
  const out = [
    `${exact} ${sh}`,
    `₪${exact}`,
    `${exact} ₪`,
    `₪ ${plain}`,
    `NIS ${exact}`,
    `${plain} שקלים חדשים`,
    `${exact} שח`,
  ];
  if (cents === 0) out.push(`${grouped(shekels)}.- ${sh}`);
  if (cents === 0 && shekels % 1000 === 0) out.push(`${shekels / 1000} אלף ${sh}`);
  if (cents === 0 && shekels % 10_000 === 0) {
    const millions = String(shekels / 1_000_000);
    out.push(`${millions} מיליון ${sh}`, `₪${millions} מיליון`, `${millions} מליון ₪`);
  }
  return out;
}

describe('money', () => {
  it('reads the forms appraisals use', () => {
    const table: [string, number | null][] = [
      ['1,250,000 ש"ח', 125_000_000],
      ['₪1.25 מיליון', 125_000_000],
      ['850 אלף ש"ח', 85_000_000],
      ['1,250,000.- ₪', 125_000_000],
      ['2.5 מיליון שקלים חדשים', 250_000_000],
      ['NIS 40,000', 4_000_000],
      ['12,345.67 ש״ח', 1_234_567],
      ['1,25,000 ש"ח', null],
      ['12.345 ש"ח', null],
      ['1,250,000', null],
      ['ש"ח', null],
      ['0 ש"ח', null],
      ['', null],
    ];
    for (const [text, agorot] of table) expect(normalizeMoney(text), text).toBe(agorot);
    expect(agorotOf('1.5', 'מיליארד')).toBe(150_000_000_000);
    expect(formatShekels(125_000_050)).toBe('1,250,000.50 ₪');
  });

  it('finds amounts in running text with offsets, and skips bare numbers', () => {
    const text = 'השווי במצב הקודם 4,200,000 ש"ח, מגרש בשטח 620 מ"ר, והשבחה של ₪1.19 מיליון.';
    const found = findMoney(text);
    expect(found.map((m) => m.agorot)).toEqual([420_000_000, 119_000_000]);
    for (const m of found) expect(text.slice(m.start, m.end)).toBe(m.text);
  });

  it('gives one value for every written form of the same amount (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 1, max: 9_999_999_999 }),
          fc.integer({ min: 1, max: 99_999 }).map((n) => n * 1_000_000),
          fc.integer({ min: 1, max: 9_999 }).map((n) => n * 100_000),
        ),
        fc.constantFrom(...QUOTES),
        (agorot, quote) => {
          for (const form of forms(agorot, quote)) expect(normalizeMoney(form), form).toBe(agorot);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on garbage, and finds only well-formed amounts in it (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789,.₪ש"ח אלףמיליון-'.split('')), maxLength: 40 }),
        (text) => {
          const found = findMoney(text);
          for (const m of found) {
            expect(Number.isInteger(m.agorot) && m.agorot > 0).toBe(true);
            expect(text.slice(m.start, m.end)).toBe(m.text);
          }
          normalizeMoney(text);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(fc.property(fc.string(), (text) => void findMoney(text)));
  });
});
