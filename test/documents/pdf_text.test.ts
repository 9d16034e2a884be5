// PDF text as it reads (src/documents/pdf_text.ts): the LibreOffice-printed fixtures of test/fixtures/layout/
// (made by scripts/fixtures/make_layout_pdfs.ts from the .txt beside them) come out word for word as their
// source, with no Hebrew letter glued to a digit that the source keeps apart; and the layout rules on items
// placed by hand: word gaps, right-to-left order, numbers and Latin kept whole, lines by baseline.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { letterDigitContacts } from '../../scripts/fixtures/measure_pdf_text.ts';
import { extractPages } from '../../src/documents/pages.ts';
import { pageText, type TextItem } from '../../src/documents/pdf_text.ts';

const fixture = (name: string) => readFile(new URL(`../fixtures/layout/${name}`, import.meta.url));
const words = (text: string) =>
  text
    .replaceAll(' | ', ' ')
    .split(/\s+/)
    .filter((w) => w !== '');

describe('PDF text from LibreOffice-printed Hebrew', () => {
  for (const name of ['decision', 'table']) {
    it(`${name}.pdf reads word for word as its source, no letter–digit contact added`, async () => {
      const source = (await fixture(`${name}.txt`)).toString('utf8');
      const text = (await extractPages(await fixture(`${name}.pdf`), 'application/pdf')).join('\n');
      expect(letterDigitContacts(text)).toBeLessThanOrEqual(letterDigitContacts(source));
      expect(words(text)).toEqual(words(source));
    });
  }

  it('keeps parcels, case numbers, dates, areas and sums as written', async () => {
    const text = (await extractPages(await fixture('decision.pdf'), 'application/pdf')).join('\n');
    for (const phrase of [
      'גוש 6638 חלקה 12',
      'ערר 8123/25',
      'מיום 12.3.2025',
      'בשטח 1,250 מ"ר',
      'בסך 6,100,000 ₪',
      'התשכ"ה-1965',
      'תכנית ב/2/401 ולפי תמ"א 38.',
      '(Dr. Amir Levi,',
      'התכסית 42% מהמגרש',
      '(ראו סעיף 5 לעיל)',
    ]) {
      expect(text).toContain(phrase);
    }
    // Short lines are lines of their own, in order.
    expect(text.split('\n').slice(0, 3)).toEqual([
      'ועדת הערר לתכנון ובנייה מחוז הדרום',
      'ערר 8123/25 — החלטה מיום 12.3.2025',
      'העוררת: חברת אבני הנגב בע"מ',
    ]);
  });

  it('reads a table row as one line, its cells right to left', async () => {
    const lines = (await extractPages(await fixture('table.pdf'), 'application/pdf')).join('\n').split('\n');
    expect(lines).toContain('שווי במצב קודם 6,100,000 ₪');
    expect(lines).toContain('זכויות בנייה 160% 210%');
  });
});

/** An item of font size 10 at (x, y), `width` wide. */
const item = (str: string, x: number, y: number, width = str.length * 5): TextItem => ({
  str,
  transform: [10, 0, 0, 10, x, y],
  width,
  height: 10,
});

describe('pageText', () => {
  it('orders a right-to-left line by position, with gaps as spaces and numbers whole', () => {
    // Drawn left to right, as a printer places them: «12.3.2025» «מיום» «החלטה» — no space characters.
    const items = [item('12.3.2025', 100, 700, 45), item('מיום', 150, 700, 20), item('החלטה', 175, 700, 25)];
    expect(pageText(items)).toBe('החלטה מיום 12.3.2025');
  });

  it('joins pieces without a gap, and splits lines by baseline, top first', () => {
    const items = [
      item('שורה', 120, 680, 20),
      item('שנייה', 90, 680, 24),
      item('גוש', 130, 700, 15),
      item('66', 100, 700, 10),
      item('38', 110, 700, 10),
      // A footnote mark a little above the baseline stays on its line.
      item('1', 90, 703, 4),
    ];
    expect(pageText(items)).toBe('גוש 6638 1\nשורה שנייה');
  });

  it('keeps a left-to-right line in order, with a Hebrew run inside read right to left', () => {
    const items = [
      item('Section', 20, 700, 35),
      item('TAMA', 60, 700, 20),
      item('38', 85, 700, 10),
      item('תכנית', 130, 700, 25),
      item('מס', 105, 700, 10),
    ];
    expect(pageText(items)).toBe('Section TAMA 38 תכנית מס');
  });

  it('reads a string drawn twice in place once, and rotated text in drawing order', () => {
    expect(pageText([item('כפול', 100, 700, 20), item('כפול', 100.2, 700, 20)])).toBe('כפול');
    const rotated: TextItem = {
      str: 'צד',
      transform: [0, 10, -10, 0, 50, 50],
      width: 10,
      height: 10,
      hasEOL: true,
    };
    expect(pageText([rotated, { ...rotated, str: 'שני', hasEOL: false }])).toBe('צד\nשני');
  });
});
