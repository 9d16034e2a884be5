// Every shekel sum of a sentence with its label (levy, compensation, claim, or none), costs and other levies
// left out, offsets into the text; garbage is nothing, never an exception. Fixtures written for these tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../src/legal/amounts.ts';

const read = (text: string) => findAmounts(text).map((a) => [a.agorot / 100, a.label]);

describe('labelled amounts', () => {
  it('labels every sum of a sentence by the cue nearest before it', () => {
    expect(read('הוועדה דרשה היטל השבחה בסך 250,000 ₪ ובסך הכל עמדה השומה על 400,000 ₪.')).toEqual([
      [250_000, 'levy'],
      [400_000, 'levy'],
    ]);
    expect(read('העוררים תבעו 1.2 מיליון ש"ח, והשמאי פסק פיצויים בסך 300,000 ש"ח.')).toEqual([
      [1_200_000, 'claim'],
      [300_000, 'compensation'],
    ]);
  });

  it('leaves costs and other levies out, and keeps a sum with no cue unlabelled', () => {
    expect(read('היטל ההשבחה הועמד על 90,000 ₪ והוצאות בסך 5,000 ₪ הוטלו על המשיבה.')).toEqual([
      [90_000, 'levy'],
    ]);
    expect(read('נדרש היטל סלילה של 12,000 ₪ בלבד.')).toEqual([]);
    expect(read('הדירה נמכרה ב-2,000,000 ש"ח.')).toEqual([[2_000_000, null]]);
  });

  it('takes the label of the next sentence when it points back at the sum', () => {
    expect(
      read('בשומה נקבע כי ישולם למשיבים סך של 640,000 ש"ח. הסכום האמור היווה פיצויים בגין ירידת ערך.'),
    ).toEqual([[640_000, 'compensation']]);
  });

  it('gives offsets into the text, and never throws on garbage (property)', () => {
    const text = 'נקבע היטל של 12,500 ₪ לחלקה.';
    const [a] = findAmounts(text);
    expect(text.slice(a?.start, a?.end)).toBe(a?.text);
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'היטל פיצויים הוצאות שומה ש"ח ₪ 1234567890,.-'.split('')),
          maxLength: 80,
        }),
        (t) => {
          for (const x of findAmounts(t)) expect(t.slice(x.start, x.end)).toBe(x.text);
        },
      ),
      { numRuns: 400 },
    );
  });
});
