// Plan numbers and parcels as real decisions write them: spaced and mirrored slashes, a suffix written
// apart, plans without a prefix after the word plan, exhibit marks that are not plans; lists of parcels with
// «, ו-», a remark or a lot between the parcels and their block, a sub-parcel naming its block only.
// Fixtures are sentences written for these tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractReferences } from '../../src/analysis/references.ts';
import { findParcels, parcelKeys } from '../../src/legal/parcels.ts';
import { barePlanAliases, findPlans } from '../../src/legal/plans.ts';

const plans = (text: string) => findPlans(text).map((p) => p.key);
const parcels = (text: string) => findParcels(text).flatMap((p) => parcelKeys(p));

describe('plan forms', () => {
  it('drops the spaces around slashes and keeps a one-letter suffix written apart', () => {
    expect(plans('על המגרש חלה תכנית חריש/ 1/ א מאז אישורה')).toEqual(['חריש/1/א']);
    expect(plans('וכן תכנית רע / מק / 1010 שבהכנה')).toEqual(['רע/מק/1010']);
    expect(plans('התכנית הר/2000 מ אושרה')).toEqual(['הר/2000מ']);
    // A conjunction after the number is no suffix.
    expect(plans('תכנית גז/12 ו גז/13')).toEqual(['גז/12', 'גז/13']);
  });

  it('sets a mirrored number right, a glued conjunction left out', () => {
    expect(plans("לפי תוכנית טב4410/ וטב4411/ ותוכנית מנ77/ב' שקדמה להן")).toEqual([
      'טב/4410',
      'טב/4411',
      'מנ/77/ב',
    ]);
    expect(findPlans('ותוכנית וטב4411/ חלה')[0]?.text).toBe('טב4411/');
  });

  it('finds a plan without a prefix after the word plan, not a measure or a date', () => {
    expect(plans("חלה תכנית מיתאר מקומית 3132 ולצידה תכנית מס' 77/03/5")).toEqual(['3132', '77/03/5']);
    expect(plans('כפי שנקבע בתב"ע 120, אשר קובעת')).toEqual(['120']);
    expect(plans('התכנית 40 מ"ר בלבד')).toEqual([]);
    expect(plans('תכנית 1.5.2001 פורסמה')).toEqual([]);
  });

  it('reads a bare number as the prefixed plan of the same document', () => {
    const text = 'השומה נערכה לפי תכנית 4120 ... וכך נקבע בתכנית כס/4120 עצמה.';
    const aliases = barePlanAliases(plans(text));
    expect(aliases.get('4120')).toBe('כס/4120');
    const refs = extractReferences([text]).filter((r) => r.kind === 'plan');
    expect(new Set(refs.map((r) => r.key))).toEqual(new Set(['כס/4120']));
  });

  it('leaves an exhibit mark in parentheses and an appeal number out', () => {
    expect(plans('המכתב שצורף לתצהיר (מש/3) והפרוטוקול (ת/12)')).toEqual([]);
    expect(plans("ראו ערר מס' גז/123/20 שהוכרע")).toEqual([]);
  });

  it('gives one key to every written form of the same local plan (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('גז', 'הר', 'רע', 'טב', 'חד'),
        fc.integer({ min: 100, max: 99_999 }),
        fc.constantFrom('לפי תכנית ', 'ובתוכנית ', 'התכנית ', 'כאמור בתכנית '),
        (prefix, n, before) => {
          const want = `${prefix}/${n}`;
          for (const form of [`${prefix}/${n}`, `${prefix} / ${n}`, `${prefix}/ ${n}`, `${prefix}${n}/`]) {
            const text = `${before}${form} שאושרה`;
            expect(plans(text), text).toEqual([want]);
          }
        },
      ),
    );
  });
});

describe('parcel lists', () => {
  const key = (b: number, p: number) => `גוש ${b} חלקה ${p}`;

  it('reads a list joined by «, ו-» and carries the block to each parcel', () => {
    expect(parcels('החלקות 31, 32, ו- 40 בגוש 7711 נרכשו')).toEqual([
      key(7711, 31),
      key(7711, 32),
      key(7711, 40),
    ]);
    expect(parcels('חלקות 5 ו 9 בגוש 100')).toEqual([key(100, 5), key(100, 9)]);
  });

  it('reads past a remark or a lot between the parcels and the block', () => {
    expect(parcels("חלקות מס' 14 ו-22 (בחלקן), גוש 9120")).toEqual([key(9120, 14), key(9120, 22)]);
    expect(parcels('הנכס בחלקה 7 מגרש 301 גוש 6010, בעיר')).toEqual([key(6010, 7)]);
  });

  it('names only the block of a sub-parcel', () => {
    expect(parcels('הדירה היא תת חלקה 15 בגוש 30040 ברחוב')).toEqual(['גוש 30040']);
  });

  it('gives the same keys for every written form of a list (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 99_999 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 999 }), { minLength: 2, maxLength: 4 }),
        fc.constantFrom(', ', ' ו-', ', ו-', ', ו- ', ' ו'),
        (block, list, sep) => {
          const sorted = [...list].sort((a, b) => a - b);
          const head = sorted.slice(0, -1).join(', ');
          const text = `חלקות ${head}${sep}${sorted.at(-1)} בגוש ${block}`;
          expect(parcels(text), text).toEqual(sorted.map((p) => key(block, p)));
        },
      ),
    );
  });
});

describe('more land forms', () => {
  it('keeps a lettered part of a national plan, spaces out of a bare number, and a fiscal block', () => {
    expect(plans('הבינוי כפוף לתמ"א 10/ד/10 ולתכנית מפורטת 4/ 03/ 101 גם יחד')).toEqual([
      'תמ"א 10/ד/10',
      '4/03/101',
    ]);
    expect(parcels('המקרקעין בגוש שומה 3 חלקה 8')).toEqual(['גוש 3 חלקה 8']);
  });

  it('carries the block back to parcels joined to a parcel that has one', () => {
    expect(parcels('הבעלים של חלקה 40, חלקה 41 ובחלקה 44 בגוש 8200')).toEqual([
      'גוש 8200 חלקה 40',
      'גוש 8200 חלקה 41',
      'גוש 8200 חלקה 44',
    ]);
    expect(parcels('חלקה 5 והיא סמוכה לכביש')).toEqual([]);
  });

  it("reads «ח'» after a block, several blocks at once, and «באותו גוש»", () => {
    expect(parcels("המבנה בגוש 4410 ח' 7 נהרס")).toEqual(['גוש 4410 חלקה 7']);
    expect(parcels('השטח בגושים 1200 ו-1201 הופקע')).toEqual(['גוש 1200', 'גוש 1201']);
    expect(parcels('חלקה 3 בגוש 900, וחלקות 4 ו-6 באותו גוש')).toEqual([
      'גוש 900 חלקה 3',
      'גוש 900 חלקה 4',
      'גוש 900 חלקה 6',
    ]);
    expect(plans("חלה תוכנית בניין עיר מס' 610 ותכנית 75/א")).toEqual(['610', '75/א']);
  });
});
