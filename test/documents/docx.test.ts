// Word as it reads (src/documents/docx.ts), on DOCX files made here: with the docx library (as Word-like
// writers do), saved again by LibreOffice (test/fixtures/layout/*.libreoffice.docx) and, for what neither
// writes (w:lastRenderedPageBreak, tracked deletions, field codes, the fallback copy of a drawing), from
// hand-written WordprocessingML in a ZIP.

import { readFile } from 'node:fs/promises';
import {
  Document,
  Footer,
  FootnoteReferenceRun,
  Header,
  Packer,
  PageBreak,
  Paragraph,
  SectionType,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { describe, expect, it } from 'vitest';
import { zipOf } from '../../scripts/fixtures/hostile.ts';
import {
  ENDNOTES_MARK,
  extractDocxPages,
  FOOTNOTES_MARK,
  HEADERS_MARK,
  MAX_PAGE_CHARS,
  PAGE_CHARS,
} from '../../src/documents/docx.ts';
import { extractPages } from '../../src/documents/pages.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const p = (text: string) =>
  new Paragraph({ bidirectional: true, children: [new TextRun({ text, rightToLeft: true })] });
const row = (...cells: string[]) =>
  new TableRow({ children: cells.map((c) => new TableCell({ children: [p(c)] })) });
const pack = async (doc: Document) => new Uint8Array(await Packer.toBuffer(doc));
const pagesOf = async (bytes: Uint8Array) => extractPages(bytes, DOCX);

/** A DOCX from a body of hand-written WordprocessingML (and optional other parts). */
const rawDocx = (body: string, parts: Record<string, string> = {}) => {
  const enc = new TextEncoder();
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return zipOf([
    { name: '[Content_Types].xml', data: enc.encode('<Types/>'), method: 0 },
    {
      name: 'word/document.xml',
      data: enc.encode(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
      method: 0,
    },
    ...Object.entries(parts).map(([name, xml]) => ({ name, data: enc.encode(xml), method: 0 as const })),
  ]);
};
const para = (text: string, extra = '') =>
  `<w:p>${extra}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

describe('DOCX text as it reads', () => {
  it('reads a table row as one line, its cells in order joined by " | "', async () => {
    const doc = new Document({
      sections: [
        {
          children: [
            p('טבלת שומה'),
            new Table({
              rows: [row('פריט', 'סכום'), row('שווי במצב קודם', '6,100,000 ₪'), row('שטח', '', '540 מ"ר')],
            }),
            p('אחרי הטבלה'),
          ],
        },
      ],
    });
    expect(await pagesOf(await pack(doc))).toEqual([
      'טבלת שומה\nפריט | סכום\nשווי במצב קודם | 6,100,000 ₪\nשטח | 540 מ"ר\nאחרי הטבלה',
    ]);
  });

  it('follows explicit page breaks, page-break-before and next-page section breaks, not continuous ones', async () => {
    const doc = new Document({
      sections: [
        { children: [p('עמוד ראשון'), new Paragraph({ children: [new PageBreak()] }), p('עמוד שני')] },
        { properties: { type: SectionType.NEXT_PAGE }, children: [p('עמוד שלישי')] },
        { properties: { type: SectionType.CONTINUOUS }, children: [p('עדיין בעמוד השלישי')] },
        { children: [new Paragraph({ pageBreakBefore: true, children: [new TextRun('עמוד רביעי')] })] },
      ],
    });
    expect(await pagesOf(await pack(doc))).toEqual([
      'עמוד ראשון',
      'עמוד שני',
      'עמוד שלישי\nעדיין בעמוד השלישי',
      'עמוד רביעי',
    ]);
  });

  it('takes the page breaks Word rendered, once each, and the break before a table row that holds one', async () => {
    const body = [
      para('שורה ראשונה'),
      '<w:p><w:r><w:t>סוף עמוד</w:t></w:r><w:r><w:br w:type="page"/></w:r><w:r><w:lastRenderedPageBreak/><w:t>עמוד שני</w:t></w:r></w:p>',
      '<w:p><w:r><w:t>עוד</w:t><w:lastRenderedPageBreak/><w:t> באמצע</w:t></w:r></w:p>',
      '<w:tbl><w:tr><w:tc>',
      para('תא א'),
      '</w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:lastRenderedPageBreak/><w:t>תא ב</w:t></w:r></w:p></w:tc><w:tc>',
      para('תא ג'),
      '</w:tc></w:tr></w:tbl>',
    ].join('');
    expect(await pagesOf(rawDocx(body))).toEqual([
      'שורה ראשונה\nסוף עמוד',
      'עמוד שני\nעוד',
      'באמצע\nתא א',
      'תא ב | תא ג',
    ]);
  });

  it('reads text as it stands: no deleted revisions, field codes or drawing fallbacks; tabs and line breaks kept', async () => {
    const body = [
      '<w:p><w:r><w:t>נשאר</w:t></w:r><w:del><w:r><w:delText>נמחק</w:delText></w:r></w:del><w:ins><w:r><w:t> נוסף</w:t></w:r></w:ins></w:p>',
      '<w:p><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:t>7</w:t></w:r></w:p>',
      '<w:p><w:r><mc:AlternateContent><mc:Choice><w:t>תיבה</w:t></mc:Choice><mc:Fallback><w:t>תיבה</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>',
      '<w:p><w:r><w:t>א</w:t><w:tab/><w:t>ב</w:t><w:br/><w:t>ג &amp; ד</w:t></w:r></w:p>',
    ].join('');
    expect(await pagesOf(rawDocx(body))).toEqual(['נשאר נוסף\n7\nתיבה\nא ב\nג & ד']);
  });

  it('keeps footnotes at the foot of the page citing them, endnotes and headers after the body, marked', async () => {
    const doc = new Document({
      footnotes: { 1: { children: [p('ראו ערר 1024/25')] }, 2: { children: [p('שם, בפסקה 4')] } },
      sections: [
        {
          headers: { default: new Header({ children: [p('ועדת הערר — מחוז הדרום')] }) },
          footers: { default: new Footer({ children: [p('סודי')] }) },
          children: [
            new Paragraph({ children: [new TextRun('הלכה ידועה'), new FootnoteReferenceRun(1)] }),
            new Paragraph({ children: [new PageBreak()] }),
            new Paragraph({ children: [new TextRun('ועוד'), new FootnoteReferenceRun(2)] }),
          ],
        },
      ],
    });
    const pages = await pagesOf(await pack(doc));
    expect(pages).toEqual([
      `הלכה ידועה[1]\n\n${FOOTNOTES_MARK}\n[1] ראו ערר 1024/25`,
      `ועוד[2]\n\n${FOOTNOTES_MARK}\n[2] שם, בפסקה 4\n\n${HEADERS_MARK}\nועדת הערר — מחוז הדרום\nסודי`,
    ]);
    const endnotes = rawDocx(
      '<w:p><w:r><w:t>טקסט</w:t></w:r><w:r><w:endnoteReference w:id="3"/></w:r></w:p>',
      {
        'word/endnotes.xml':
          '<w:endnotes><w:endnote w:type="separator" w:id="0"><w:p><w:r><w:t>—</w:t></w:r></w:p></w:endnote><w:endnote w:id="3"><w:p><w:r><w:t>הערת סיום</w:t></w:r></w:p></w:endnote></w:endnotes>',
      },
    );
    expect(await pagesOf(endnotes)).toEqual([`טקסט[3]\n\n${ENDNOTES_MARK}\n[3] הערת סיום`]);
  });

  it('cuts a document without page breaks into bounded pages, the same on every read', async () => {
    const sentence = 'הוועדה שקלה את טענות הצדדים ואת חוות הדעת שהוגשו לה, ומצאה כי יש לקבל את הערר בחלקו. ';
    const paragraphs = Array.from({ length: 60 }, (_, i) => `${i + 1}. ${sentence.repeat(4)}`);
    const bytes = await pack(new Document({ sections: [{ children: paragraphs.map(p) }] }));
    const pages = await pagesOf(bytes);
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.every((t) => t.length <= PAGE_CHARS)).toBe(true);
    expect(pages.join('\n').split('\n')).toEqual(paragraphs.map((t) => t.trim()));
    expect(await pagesOf(bytes)).toEqual(pages);
    // One paragraph longer than any page is cut at the page cap.
    const long = await pagesOf(rawDocx(para('א'.repeat(MAX_PAGE_CHARS * 2 + 10))));
    expect(long.map((t) => t.length)).toEqual([MAX_PAGE_CHARS, MAX_PAGE_CHARS, 10]);
  });

  it('reads LibreOffice’s DOCX (entries with data descriptors) word for word, table rows as lines', async () => {
    const words = (t: string) =>
      t
        .replaceAll(' | ', ' ')
        .split(/\s+/)
        .filter((w) => w !== '');
    for (const name of ['decision', 'table']) {
      const dir = new URL('../fixtures/layout/', import.meta.url);
      const source = await readFile(new URL(`${name}.txt`, dir), 'utf8');
      const pages = await pagesOf(await readFile(new URL(`${name}.libreoffice.docx`, dir)));
      expect(words(pages.join('\n'))).toEqual(words(source));
      if (name === 'table') expect(pages.join('\n').split('\n')).toEqual(source.trim().split('\n'));
    }
  });

  it('refuses a ZIP without word/document.xml', async () => {
    const zip = zipOf([{ name: 'word/other.xml', data: new TextEncoder().encode('<x/>'), method: 0 }]);
    await expect(extractDocxPages(zip)).rejects.toMatchObject({
      failure: 'broken',
      message: /no word\/document.xml/,
    });
  });
});
