// The written forms a proceeding number takes beyond the plain «kind number»: dotted abbreviations (ת.א.,
// ע.א.), the magistrates' court's צ"א, building offences (ת"פ, תו"ב, עפ"ג), kinds spelled out in words, a party's name before the number, joined and
// ranged numbers, and a list of
// numbers under one kind, each expanded to one key per proceeding; and what stays out of them.
import { describe, expect, it } from 'vitest';
import { findProceedings } from '../../src/legal/proceedings.ts';

const keys = (text: string) => findProceedings(text).map((f) => f.key);

describe('proceeding numbers in their other written forms', () => {
  it('reads dotted abbreviations, with or without the closing dot', () => {
    expect(keys('התביעה (בת.א. 4410/97 בבית משפט השלום) והערעור עליה (ע.א. 3021/01).')).toEqual([
      'ת"א 4410/97',
      'ע"א 3021/01',
    ]);
    expect(keys('פסק הדין בת.א 55120/98 ניתן בהיעדר.')).toEqual(['ת"א 55120/98']);
    // A city written with dots and no number is no proceeding.
    expect(keys('הנכס בת.א. ברחוב הרצל 12')).toEqual([]);
  });

  it('reads the magistrates’ court’s צ"א', () => {
    expect(keys('ההחלטה בתיק צ"א 7311-04-19 של בית משפט השלום')).toEqual(['צ"א 7311-04-19']);
  });

  it('reads the kinds of building offences and their appeals, and the magistrates’ civil kinds', () => {
    expect(
      keys(
        'ההרשעה בת"פ 2210/06 ובתו"ב 318/07, הערעור בעפ"ג 4411-03-12 ובעפ"א 77/09, והתביעה בתא"מ 5120-06-14.',
      ),
    ).toEqual(['ת"פ 2210/06', 'תו"ב 318/07', 'עפ"ג 4411-03-12', 'עפ"א 77/09', 'תא"מ 5120-06-14']);
    // Their letters without a quote mark are words, not kinds.
    expect(keys('התאם 3/04 ותוב 5/06')).toEqual([]);
  });

  it('reads kinds spelled out in words as their abbreviation', () => {
    expect(keys('כפי שנפסק בהמרצת פתיחה 318/05 ובערעור אזרחי 2290/06 שבא אחריה')).toEqual([
      'ה"פ 318/05',
      'ע"א 2290/06',
    ]);
  });

  it('expands joined and ranged numbers to one key each', () => {
    expect(keys('כך קבענו בערר 71+72/10 ובעררים 203-206/11.')).toEqual([
      'ערר 71/10',
      'ערר 72/10',
      'ערר 203/11',
      'ערר 204/11',
      'ערר 205/11',
      'ערר 206/11',
    ]);
    // A district number is no range, and a "range" that runs backwards or too far is read as its last number.
    expect(keys('עת"מ 4471-06-15')).toEqual(['עת"מ 4471-06-15']);
    expect(keys('ערר 90-12/14')).toEqual(['ערר 12/14']);
    expect(keys('ערר 10-95/14')).toEqual(['ערר 95/14']);
  });

  it('reads a list of numbers under one kind, each at its own offsets', () => {
    const text = 'ראו ערר 140/08, 152/08 ו-163/08 וכן עמ"נ 2210-03-13,2214-03-13 שבאו אחריהם';
    const found = findProceedings(text);
    expect(found.map((f) => f.key)).toEqual([
      'ערר 140/08',
      'ערר 152/08',
      'ערר 163/08',
      'עמ"נ 2210-03-13',
      'עמ"נ 2214-03-13',
    ]);
    for (const f of found) expect(text.slice(f.start, f.end)).toBe(f.text);
    expect(found[1]?.text).toBe('152/08');
    // A date or an amount after the comma is not listed.
    expect(keys('בערר 140/08, 3.2.2009, 12,000 ש"ח')).toEqual(['ערר 140/08']);
  });

  it('reads a party’s name between the kind and the number, but not a date word or after the city ת"א', () => {
    expect(keys('כפי שפסק בעמ"נ (חי\') שושן 41870-09-14 שושן נ\' הוועדה, ובבר"ם שושן 5521/15')).toEqual([
      'עמ"נ 41870-09-14',
      'בר"מ 5521/15',
    ]);
    expect(keys('הוגש ערר מיום 05-03-20 ולא ערר ביום 14-02-21')).toEqual([]);
    expect(keys('המשרד בת"א אלנבי 14/30 נסגר')).toEqual([]);
    expect(keys('המשרד בת"א אלנבי, ותיק ת"א 8812/19 נדון')).toEqual(['ת"א 8812/19']);
  });
});
