// The appraisal reader on each ordinary phrasing of a figure, in prose, in bullets and in table rows (the
// «cell | cell» lines the Word reader gives): the value before and after a plan, the betterment named as
// itself and never the levy's or half of it, a date before its cue, a price per m² by its cue, «שח» without
// gershayim, a value column without ₪, a coefficient named by what follows, every sum of a list, and the
// compensation kinds (the injury, the compensation, the reduction for the reasonable range).
import { describe, expect, it } from 'vitest';
import { daysToIso, extractFacts } from '../../src/analysis/appraisal.ts';

const facts = (...lines: string[]) =>
  extractFacts([lines.join('\n')]).map((f) => [
    f.kind,
    f.name,
    f.unit === 'date' ? daysToIso(f.value) : f.value,
  ]);

describe('appraisal reader: figures in ordinary phrasing', () => {
  it('reads the value before and after the plan and the betterment as written in prose', () => {
    expect(
      facts(
        'ערך המגרש טרם אישור התכנית: 2,750,000 ש"ח.',
        'ערך המגרש לאחר אישור התכנית: 3,300,000 ש"ח.',
        'לפיכך ההשבחה הנובעת מהתכנית היא 550,000 ש"ח.',
      ),
    ).toEqual([
      ['value_prior', null, 275_000_000],
      ['value_new', null, 330_000_000],
      ['betterment', null, 55_000_000],
    ]);
  });

  it('reads a determining date written before its cue', () => {
    expect(facts('יום פרסומה של התכנית למתן תוקף, 18.1.2023, הוא המועד הקובע.')).toEqual([
      ['determining_date', null, '2023-01-18'],
    ]);
  });

  it('reads «ההשבחה:» as a betterment and the levy at half of it as a levy only', () => {
    expect(facts('ההשבחה: 480,000 ש"ח.', 'והיטל ההשבחה בשיעור מחצית ההשבחה: 240,000 ש"ח.')).toEqual([
      ['betterment', null, 48_000_000],
      ['levy', null, 24_000_000],
    ]);
    expect(facts('היטל ההשבחה, 50% מההשבחה, הוא 95,000 ש"ח.')).toEqual([['levy', null, 9_500_000]]);
  });

  it('reads a price per m² by its cue, with the state the sentence names', () => {
    expect(facts('שווי למ"ר מבונה: 12,300 ש"ח.', 'השווי למ"ר אקוו׳ במצב הקודם נקבע על 7,400 ש"ח.')).toEqual([
      ['price_per_sqm', null, 1_230_000],
      ['price_per_sqm', 'prior', 740_000],
    ]);
  });

  it('reads «שח» without gershayim as shekels', () => {
    expect(facts('- שווי הנכס במצב הקודם: 1,900,000 שח', '- שווי הנכס במצב החדש: 2,150,000 שח')).toEqual([
      ['value_prior', null, 190_000_000],
      ['value_new', null, 215_000_000],
    ]);
  });

  it('reads a table row’s value column without ₪, the deciding column when the header names one', () => {
    expect(
      facts('פריט | סכום', 'שווי במצב קודם | 1,250,000', 'מקדם דחייה | 0.93', 'שטח המגרש | 410 מ"ר'),
    ).toEqual([
      ['value_prior', null, 125_000_000],
      ['coefficient', 'מקדם דחיה', 93],
      ['area', 'מגרש', 410],
    ]);
    expect(
      facts(
        'נושא | שמאי העוררים | שמאי הוועדה | הכרעה',
        'השבחה | 300,000 | 900,000 | 610,000',
        'היטל השבחה | 150,000 | 450,000 | 305,000',
      ),
    ).toEqual([
      ['betterment', null, 61_000_000],
      ['levy', null, 30_500_000],
    ]);
  });

  it('names a coefficient by what follows «מקדם של»', () => {
    expect(facts('בנוסף הוחל מקדם של 0.8 בגין סחירות.', 'ונלקח מקדם בשיעור 90% עבור דחייה.')).toEqual([
      ['coefficient', 'מקדם סחירות', 80],
      ['coefficient', 'מקדם דחיה', 90],
    ]);
  });

  it('reads every sum of a list after one cue', () => {
    expect(facts('ההשבחה בשלושת המגרשים היא 210,000 ₪, 35,500 ₪ ו-1,020,000 ₪.')).toEqual([
      ['betterment', null, 21_000_000],
      ['betterment', null, 3_550_000],
      ['betterment', null, 102_000_000],
    ]);
  });

  it('leaves out a claimed sum, other levies and a sale', () => {
    expect(
      facts(
        'התובעים תבעו פיצויים בסך 900,000 ש"ח.',
        'היטל הסלילה שולם בסך 40,000 ש"ח.',
        'דירה סמוכה נמכרה ב-1,600,000 ש"ח.',
      ),
    ).toEqual([]);
  });

  it('reads a compensation case: the values, the injury, the reduction and the compensation', () => {
    expect(
      facts(
        'שווי הנכס לפני הפגיעה: 2,000,000 ש"ח.',
        'שווי הנכס לאחר הפגיעה: 1,500,000 ש"ח.',
        'ירידת הערך בשל התכנית היא 500,000 ש"ח.',
        'יש להפחית 15% בגין התחום הסביר.',
        'סכום ההפחתה בשל תחום הסבירות: 75,000 ש"ח.',
        'לפיכך הפיצוי המגיע הוא 425,000 ש"ח.',
      ),
    ).toEqual([
      ['value_prior', null, 200_000_000],
      ['value_new', null, 150_000_000],
      ['injury', null, 50_000_000],
      ['reasonable_reduction', 'שיעור', 15],
      ['reasonable_reduction', null, 7_500_000],
      ['compensation', null, 42_500_000],
    ]);
  });

  it('keeps offsets exact: every fact’s text is its span of the page', () => {
    const page = 'פריט | סכום\nהשבחה | 700,000\nיום תחילת התכנית, 5.7.2022, הוא המועד הקובע.';
    for (const f of extractFacts([page])) expect(page.slice(f.start, f.end)).toBe(f.text);
  });
});
