import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeHebrew, prefixStripped } from '../../src/hebrew/text.ts';

const hebrewLetter = fc.constantFrom(...'אבגדהוזחטיכלמנסעפצקרשתךםןףץ'.split(''));
const mark = fc
  .integer({ min: 0x0591, max: 0x05c7 })
  .filter((c) => ![0x05be, 0x05c0, 0x05c3, 0x05c6].includes(c))
  .map((c) => String.fromCharCode(c));
const hebrewWord = fc.array(hebrewLetter, { minLength: 1, maxLength: 8 }).map((a) => a.join(''));
const hebrewText = fc.array(hebrewWord, { minLength: 1, maxLength: 12 }).map((a) => a.join(' '));

describe('normalizeHebrew', () => {
  it('strips niqqud and cantillation, maps maqaf to a space, and unifies final letters', () => {
    expect(normalizeHebrew('בְּרֵאשִׁית בָּרָא')).toBe('בראשית ברא');
    expect(normalizeHebrew('קרית־שמונה')).toBe('קרית שמונה');
    expect(normalizeHebrew('שָׁלוֹם עֲלֵיכֶם')).toBe('שלומ עליכמ');
    expect(normalizeHebrew('ךםןףץ')).toBe('כמנפצ');
    // Presentation forms (U+FB2A shin with shin dot) decompose, then lose the mark.
    expect(normalizeHebrew('\uFB2Aלום')).toBe(normalizeHebrew('שלום'));
  });

  it('drops geresh and gershayim (and their ASCII look-alikes) inside Hebrew words', () => {
    for (const form of ['ע"א', 'ע״א', 'ע”א', 'עא']) expect(normalizeHebrew(form)).toBe('עא');
    expect(normalizeHebrew('בג"ץ 7075/04')).toBe('בגצ 7075/04');
    expect(normalizeHebrew("פלונית נ' פלוני")).toBe('פלונית נ פלוני');
    expect(normalizeHebrew('ז׳בוטינסקי')).toBe(normalizeHebrew("ז'בוטינסקי"));
    // Outside Hebrew words quote marks separate words.
    expect(normalizeHebrew('"quoted" text')).toBe('quoted text');
  });

  it('keeps / and - only between digits, lower-cases Latin, and turns other punctuation into spaces', () => {
    expect(normalizeHebrew('עמ"נ 17732-10-16')).toBe('עמנ 17732-10-16');
    expect(normalizeHebrew('ערר 1024/25.')).toBe('ערר 1024/25');
    expect(normalizeHebrew('Section 19(ג)(1) — x/y')).toBe('section 19 ג 1 x y');
  });

  it('is idempotent and ignores niqqud wherever it is inserted (property)', () => {
    fc.assert(
      fc.property(hebrewText, fc.array(fc.tuple(fc.nat(), mark), { maxLength: 10 }), (text, marks) => {
        const normal = normalizeHebrew(text);
        expect(normalizeHebrew(normal)).toBe(normal);
        const chars = [...text];
        for (const [at, m] of marks) {
          const i = at % (chars.length + 1);
          // Marks only after a letter, as in real pointed text.
          if (i > 0 && chars[i - 1] !== ' ') chars.splice(i, 0, m);
        }
        expect(normalizeHebrew(chars.join(''))).toBe(normal);
        expect(normal).not.toMatch(/[\u0591-\u05C7ךםןףץ"'׳״]/);
      }),
    );
  });
});

describe('prefixStripped', () => {
  it('every stripped form is a suffix of the word with at least two letters (property)', () => {
    fc.assert(
      fc.property(hebrewWord, (word) => {
        const w = normalizeHebrew(word);
        for (const f of prefixStripped(w)) {
          expect(w.endsWith(f)).toBe(true);
          expect(f.length).toBeGreaterThanOrEqual(2);
        }
      }),
    );
  });
});
