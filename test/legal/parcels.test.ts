// Blocks and parcels to one key per parcel, in every written order and form; ranges expand; garbage is
// nothing, never an exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findParcels, normalizeParcel, parcelList } from '../../src/legal/parcels.ts';

describe('parcels', () => {
  it('reads each form to its keys', () => {
    const key = (b: number, p: number) => `גוש ${b} חלקה ${p}`;
    const table: [string, string[] | null][] = [
      ['גוש 6638 חלקה 12', [key(6638, 12)]],
      ['גוש 6638, חלקות 12-14', [key(6638, 12), key(6638, 13), key(6638, 14)]],
      ['גוש 6638 חלקות 12 ו-13', [key(6638, 12), key(6638, 13)]],
      ['חלקה 12 בגוש 6638', [key(6638, 12)]],
      ['גוש/חלקה 6638/12', [key(6638, 12)]],
      ['גוש: 6638 חלקה: 12', [key(6638, 12)]],
      ['ח"ח 12 בגוש 6638', [key(6638, 12)]],
      ['גוש 6638', ['גוש 6638']],
      ['גוש 6638 חלקות 1-999', null],
      ['חלקה', null],
    ];
    for (const [text, keys] of table) expect(normalizeParcel(text), text).toEqual(keys);
    expect(parcelList('12-14, 17 ו-20')).toEqual([12, 13, 14, 17, 20]);
  });

  it('leaves a glued prefix out and stops a singular parcel at its number', () => {
    const text = 'המקרקעין הידועים כגוש 6543 חלקה 21, 540 מ"ר';
    const [found] = findParcels(text);
    expect(found).toMatchObject({ block: 6543, parcels: [21], text: 'גוש 6543 חלקה 21' });
    expect(text.slice(found?.start, found?.end)).toBe(found?.text);
  });

  it('gives the same keys for every written form of the same parcel (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 999_999 }),
        fc.integer({ min: 1, max: 9999 }),
        (block, parcel) => {
          const want = [`גוש ${block} חלקה ${parcel}`];
          for (const form of [
            `גוש ${block} חלקה ${parcel}`,
            `גוש ${block}, חלקה ${parcel}`,
            `חלקה ${parcel} בגוש ${block}`,
            `גוש/חלקה ${block}/${parcel}`,
            `גוש: ${block} חלקה: ${parcel}`,
          ]) {
            expect(normalizeParcel(form), form).toEqual(want);
          }
        },
      ),
    );
  });

  it('never throws on garbage (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'גושחלקהות 0123456789,-/:'.split('')), maxLength: 40 }),
        (text) => {
          for (const p of findParcels(text)) expect(text.slice(p.start, p.end)).toBe(p.text);
          normalizeParcel(text);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
