// Forms whose reading depends on the rest of the document: a section the statute named before cannot have, a
// bare levy section, a spelled-out outline plan, a misprinted or a block number read as a plan, a parcel's
// former number. Fixtures are sentences written for
// these tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractReferences } from '../../src/analysis/references.ts';
import { hasSection } from '../../src/legal/attribution.ts';
import { findParcels, parcelKeys } from '../../src/legal/parcels.ts';
import { barePlanAliases, findPlans } from '../../src/legal/plans.ts';

const PL = 'חוק התכנון והבניה 1965';
const keysOf = (text: string, kind: string) => [
  ...new Set(
    extractReferences([text])
      .filter((r) => r.kind === kind)
      .map((r) => r.key),
  ),
];
const plans = (text: string) => findPlans(text).map((p) => p.key);
const parcels = (text: string) => findParcels(text).flatMap((p) => parcelKeys(p));

describe('a section and the statute it can belong to', () => {
  it('gives a bare «לחוק» the Planning and Building Law when the statute named before has no such section', () => {
    const text = 'על הליך השמאות חל חוק הבוררות, התשכ"ח-1968, כפי שקובע סעיף 198 ח\' לחוק.';
    expect(keysOf(text, 'section')).toEqual([`${PL} ס' 198(ח)`]);
    // A section that statute does have stays its own.
    expect(keysOf('חוק הבוררות, התשכ"ח-1968 חל, ולפי סעיף 24 לחוק ניתן לבטל.', 'section')).toEqual([
      "חוק הבוררות 1968 ס' 24",
    ]);
    // Named right after, the statute wins whatever its number.
    expect(keysOf('ראו סעיף 240 לחוק הבוררות, התשכ"ח-1968.', 'section')).toEqual(["חוק הבוררות 1968 ס' 240"]);
    expect(hasSection('חוק הבוררות 1968', '198(י)')).toBe(false);
    expect(hasSection('חוק שלא נקרא 2001', '900')).toBe(true);
  });

  it('puts a bare section with an exemption or the levy beside it in the Third Schedule, everywhere', () => {
    const text =
      'הנכס זכאי לפטור לפי סעיף 19(ב)(1), כך טוענים העוררים. בהמשך נדון בשאלה אם סעיף 19(ב)(1) חל על מכירה.';
    expect(keysOf(text, 'section')).toEqual([`${PL} התוספת השלישית ס' 19(ב)(1)`]);
    // A bare section without either cue stays the law's, and a high number is never the schedule's.
    expect(keysOf('הוועדה פעלה לפי סעיף 12 ובלי לשמוע את הצדדים.', 'section')).toEqual([`${PL} ס' 12`]);
    expect(keysOf('החיוב בהיטל השבחה לפי סעיף 196א.', 'section')).toEqual([`${PL} ס' 196א`]);
  });

  it('reads «לתוספת» without its ordinal as the schedule named before, else the levy schedule', () => {
    expect(keysOf('שומת היטל השבחה הוצאה. מועד המימוש נקבע לפי סעיף 7 לתוספת.', 'section')).toEqual([
      `${PL} התוספת השלישית ס' 7`,
    ]);
    expect(keysOf('לפי התוספת הרביעית, ובהתאם לסעיף 2 לתוספת.', 'section')).toEqual([
      `${PL} התוספת הרביעית`,
      `${PL} התוספת הרביעית ס' 2`,
    ]);
    expect(keysOf('ההחלטה ניתנה לפי סעיף 3 לתוספת.', 'section')).toEqual([`${PL} ס' 3`]);
  });
});

describe('plans the document tells apart', () => {
  it('reads a national or district outline plan spelled out', () => {
    expect(plans("ההיתר ניתן מכוח תכנית מתאר ארצית 12/ב/4 ולצידה תכנית המתאר המחוזית מס' 6")).toEqual([
      'תמ"א 12/ב/4',
      'תמ"מ 6',
    ]);
    expect(plans('לפי תכנית מתאר ארצית (תמ"א) 38 לחיזוק מבנים')).toEqual(['תמ"א 38']);
  });

  it('reads a bare number after a qualified plan word, a place among the qualifiers', () => {
    expect(plans("המגרש מחוץ לתכנית המתאר המקומית של הכפר מס' 4410.")).toEqual(['4410']);
    expect(plans("ובתוך תכנית המפורטת מס' 77/2")).toEqual(['77/2']);
    // «של» with no number word after it is prose, not a plan's qualifier.
    expect(plans('תכנית של 1990 מ"ר')).toEqual([]);
  });

  it('keeps a letter suffix on a bare plan number, a geresh dropped', () => {
    expect(plans("לפי תכנית מס' 1038א' ותכנית 1200ב ולא לפי תכנית 45 מ\"ר")).toEqual(['1038א', '1200ב']);
    expect(keysOf('חלה תכנית 310ג, היא תכנית רח/310ג.', 'plan')).toEqual(['רח/310ג']);
  });

  it('reads a bare number written once with two neighbouring digits swapped as the plan written often', () => {
    const text =
      'השומה לפי תכנית 5163 נערכה; ראו שוב תכנית 5163 ותכנית בת/5163, ואילו לפי תכנית 5136 שולם כל ההיטל.';
    expect(keysOf(text, 'plan')).toEqual(['בת/5163']);
    // Each written once: two plans, not a misprint.
    expect(keysOf('חלה תכנית 5163 וגם תכנית 5136.', 'plan')).toEqual(['5163', '5136']);
  });

  it('reads a bare number the document gives as a block as that block, not a plan', () => {
    const text = 'תשריט תכנית 4470. הבית במקרקעין הידועים כחלקה 12 בגוש 4470.';
    expect(keysOf(text, 'plan')).toEqual([]);
    expect(keysOf(text, 'parcel')).toEqual(['גוש 4470 חלקה 12']);
    expect(barePlanAliases(['4470', 'רח/4470'], [4470]).get('4470')).toBeNull();
  });

  it('maps every misprint of a plan to one key, and never throws on any keys (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 0, max: 2 }), (n, at) => {
        const right = String(n);
        const d = [...right];
        [d[at], d[at + 1]] = [d[at + 1] ?? '', d[at] ?? ''];
        const wrong = d.join('');
        const aliases = barePlanAliases([right, right, `גב/${right}`, wrong]);
        expect(aliases.get(right)).toBe(`גב/${right}`);
        if (wrong !== right) expect(aliases.get(wrong)).toBe(`גב/${right}`);
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 8 }),
        fc.array(fc.nat()),
        (keys, blocks) => {
          barePlanAliases(keys, blocks);
        },
      ),
    );
  });
});

describe('parcels and their block', () => {
  it('reads a parcel’s former number with its block', () => {
    expect(parcels('הזכויות בגוש 5501 חלקה 17 (לשעבר חלקה 3) נרשמו.')).toEqual([
      'גוש 5501 חלקה 17',
      'גוש 5501 חלקה 3',
    ]);
    expect(parcels('חלקה 17 (לשעבר חלקות 3 ו-4) בגוש 5501 היא הנכס')).toEqual([
      'גוש 5501 חלקה 17',
      'גוש 5501 חלקה 3',
      'גוש 5501 חלקה 4',
    ]);
    // A former number with no parcel mention before it has no block.
    expect(parcels('הנכס, לשעבר חלקה 3, נמכר')).toEqual([]);
  });

  it('reads part of a parcel as that parcel', () => {
    expect(parcels('הופקעו בגוש 6638 חלקי חלקות 12 ו-13')).toEqual(['גוש 6638 חלקה 12', 'גוש 6638 חלקה 13']);
    expect(parcels('חלק מחלקה 7 בגוש 3040 הופקע')).toEqual(['גוש 3040 חלקה 7']);
  });

  it('reads a remark between the parcel word and its number, and a fiscal block after the parcels', () => {
    expect(parcels('הזכויות בחלקה (חדשה) 12 בגוש 4321 נרכשו')).toEqual(['גוש 4321 חלקה 12']);
    expect(parcels('נרכשו החלקות 210, 220 ו330- בגוש שומה 7, דף 12')).toEqual([
      'גוש 7 חלקה 210',
      'גוש 7 חלקה 220',
      'גוש 7 חלקה 330',
    ]);
  });

  it('gives each parcel one key whether the remark, the former number or the mirrored dash is written (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 99_999 }),
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom('חלקה ', 'חלקה (חדשה) ', "חלקה מס' ", 'בחלקה '),
        fc.constantFrom('', '-'),
        fc.constantFrom(' בגוש ', ' בגוש שומה ', ', גוש '),
        (block, parcel, word, dash, of) => {
          const text = `${word}${parcel}${dash}${of}${block} נמכרה`;
          expect(parcels(text), text).toEqual([`גוש ${block} חלקה ${parcel}`]);
        },
      ),
    );
  });
});
