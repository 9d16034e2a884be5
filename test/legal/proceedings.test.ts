// Proceeding numbers to one key: every kind, every quote-mark form, with and without spaces, both numbering
// styles, prefixes, courts in parentheses and local prefixes; a paste of up to 20 numbers split; garbage is no
// proceeding, never an exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findProceedings, normalizeProceeding, splitProceedings } from '../../src/legal/proceedings.ts';

const QUOTES = ['"', '״', '”', "'", '׳', '׳׳', "''"];

describe('proceeding numbers', () => {
  it('reads each written form to its key', () => {
    const table: [string, string | null][] = [
      ['עע"מ 9001/19', 'עע"מ 9001/19'],
      ['עע״מ 9001/19', 'עע"מ 9001/19'],
      ['עע׳׳מ 9001/19', 'עע"מ 9001/19'],
      ['עעמ 9001/19', 'עע"מ 9001/19'],
      ['עע"ם 9001/19', 'עע"מ 9001/19'],
      ['עע"מ9001/19', 'עע"מ 9001/19'],
      ['עע"מ 9001 / 19', 'עע"מ 9001/19'],
      ['עע"מ 9001/2019', 'עע"מ 9001/19'],
      ['בעע"מ 9001/19', 'עע"מ 9001/19'],
      ['בג"ץ 1234/20', 'בג"ץ 1234/20'],
      ['בג"צ 1234/20', 'בג"ץ 1234/20'],
      ['בגץ 1234/20', 'בג"ץ 1234/20'],
      ['ובג״ץ 1234/20', 'בג"ץ 1234/20'],
      ['ע"א 1108/97', 'ע"א 1108/97'],
      ["ע'א 1108/97", 'ע"א 1108/97'],
      ['ע״א 1108/97', 'ע"א 1108/97'],
      ['רע"א 3213/97', 'רע"א 3213/97'],
      ['דנ"א 1333/02', 'דנ"א 1333/02'],
      ['בר"מ 5150/14', 'בר"מ 5150/14'],
      ['עת"מ 12345-05-20', 'עת"מ 12345-05-20'],
      ['עת"מ 12345-5-20', 'עת"מ 12345-05-20'],
      ['עת"מ 12345–05–2020', 'עת"מ 12345-05-20'],
      ['עת"מ (ת"א) 12345-05-20', 'עת"מ 12345-05-20'],
      ['עת"מ (מחוזי מרכז) 4432-11-18', 'עת"מ 4432-11-18'],
      ['ערר 1021/22', 'ערר 1021/22'],
      ["ערר מס' 1021/22", 'ערר 1021/22'],
      ["ערר מס': בב/6010/16", 'ערר 6010/16'],
      ['ערר 44-17', 'ערר 44/17'],
      ['ערר (מרכז) 1021/22', 'ערר 1021/22'],
      ['ערר 01021/22', 'ערר 1021/22'],
      ['9001/19', null],
      ['עא 1108/97', null],
      ['תא/5000', null],
      ['עע"מ 9001/193', null],
      ['', null],
    ];
    for (const [text, key] of table) expect(normalizeProceeding(text), text).toBe(key);
  });

  it('reads every quote form and spacing of each kind to one key', () => {
    const kinds = ['עע?מ', 'בג?ץ', 'ע?א', 'רע?א', 'דנ?א', 'עת?מ', 'בר?מ'];
    for (const kind of kinds) {
      const canonical = kind.replace('?', '"');
      for (const q of QUOTES) {
        for (const space of ['', ' ', '  ']) {
          const written = `${kind.replace('?', q)}${space}77/21`;
          expect(normalizeProceeding(written), written).toBe(`${canonical} 77/21`);
        }
      }
    }
  });

  it('finds citations in running text with their offsets', () => {
    const text =
      'כפי שנקבע בעע"מ 9001/19 פלוני נ\' הוועדה, וכן בבג״ץ 1234/20 ובעת"מ 12345-05-20 (פורסם בנבו).';
    const found = findProceedings(text);
    expect(found.map((f) => f.key)).toEqual(['עע"מ 9001/19', 'בג"ץ 1234/20', 'עת"מ 12345-05-20']);
    for (const f of found) expect(text.slice(f.start, f.end)).toBe(f.text);
    expect(found[0]?.text).toBe('עע"מ 9001/19');
  });

  it('leaves out dates, plans and ordinary words', () => {
    expect(findProceedings('ביום 3.2.2026 אושרה תכנית גז/1234 ותמ"א 38; סעיף 197 לחוק, 12/20 ש"ח')).toEqual(
      [],
    );
  });

  it('splits up to twenty pasted numbers, a bare number taking the kind before it', () => {
    const { keys, unread } = splitProceedings(
      'עע"מ 9001/19, בג״ץ 1234/20; ע"א 5/20 ו-6/20\nעת"מ 12345-05-20, שטות, עע"מ 9001/19',
    );
    expect(keys).toEqual(['עע"מ 9001/19', 'בג"ץ 1234/20', 'ע"א 5/20', 'ע"א 6/20', 'עת"מ 12345-05-20']);
    expect(unread).toEqual(['שטות']);
    const twenty = Array.from({ length: 20 }, (_, i) => `ערר ${1000 + i}/22`).join(', ');
    expect(splitProceedings(twenty).keys).toHaveLength(20);
  });

  it('never throws on garbage', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        findProceedings(s);
        normalizeProceeding(s);
        splitProceedings(s);
      }),
    );
  });
});
