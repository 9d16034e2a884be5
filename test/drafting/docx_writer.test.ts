// The Word file a chair signs: «החלטה» in the Title style and the header lines in the committee's header
// style, a footer with the case number and the PAGE/NUMPAGES fields, the authorities before the signature
// block, the panel's signature lines in a row that cannot split (the block above kept with it), blank lines
// under the role titles without a panel, the document properties naming the case and the committee, RTL
// throughout; and the round trip through the DOCX reader still anchors every block.
import { describe, expect, it } from 'vitest';
import { type AssembleBlock, assemble } from '../../src/drafting/assemble.ts';
import { COMMITTEE, type Signer } from '../../src/drafting/docx_page.ts';
import { readDocx } from '../../src/drafting/docx_reader.ts';
import { HEADER_STYLE, renderDocx } from '../../src/drafting/docx_writer.ts';
import { acceptedText, mapBlocks } from '../../src/drafting/final.ts';
import { readZipTexts } from '../../src/drafting/zip.ts';

const block = (kind: AssembleBlock['kind'], text: string, citations: AssembleBlock['citations'] = []) => ({
  key: kind,
  kind,
  version: 1,
  title: null,
  text,
  citations,
});

const BLOCKS: AssembleBlock[] = [
  block('header', 'ועדת הערר לתכנון ובנייה מחוז המרכז\nערר 2024/25\nפלונית נ׳ הוועדה המקומית כפר סבא'),
  block('background', 'העוררת בעלת זכויות בחלקה.\nהוועדה המקומית הוציאה שומה.'),
  block('appellant_claims', 'לטענת העוררת השומה גבוהה מדי.'),
  block('respondent_claims', 'המשיבה סבורה כי השומה נכונה.'),
  block('discussion', 'כפי שנקבע בעע״מ 3100/21 אלמוני נ׳ הוועדה המקומית רעננה, אין מקום להתערב.', [
    { text: 'עע״מ 3100/21 אלמוני נ׳ הוועדה המקומית רעננה', number: '3100/21' },
  ]),
  block('outcome', 'הערר נדחה.'),
  block('costs', 'אין צו להוצאות.'),
  block('signature', 'ניתנה היום בהעדר הצדדים.'),
];

const PANEL: Signer[] = [
  { name: 'עו"ד מיכל דוד', title: 'יו"ר הוועדה' },
  { name: 'יעל שלום', title: 'חברת הוועדה' },
];

const META = {
  caseId: crypto.randomUUID(),
  caseNumber: 'ערר 2024/25',
  blocksHash: 'h',
  caseTitle: 'היטל השבחה — כפר סבא',
};

async function parts(signers = PANEL, blocks = BLOCKS) {
  const { bytes, blocks: rendered } = await renderDocx(assemble(blocks), { ...META, signers });
  const xml = await readZipTexts(bytes, [
    'word/document.xml',
    'word/footer1.xml',
    'word/styles.xml',
    'docProps/core.xml',
    'docProps/app.xml',
  ]);
  const get = (name: string) => xml.get(name) ?? '';
  return { bytes, rendered, doc: get('word/document.xml'), get };
}

/** The paragraph (w:p … /w:p) holding `text`. */
const paragraphOf = (xml: string, text: string) => {
  const at = xml.indexOf(`>${text}<`);
  const start = Math.max(xml.lastIndexOf('<w:p>', at), xml.lastIndexOf('<w:p ', at));
  return xml.slice(start, xml.indexOf('</w:p>', at));
};

describe('the Word file the chair signs', () => {
  it('puts «החלטה» alone in the Title style and the header lines in the committee’s header style', async () => {
    const { doc, get } = await parts();
    expect(paragraphOf(doc, 'החלטה')).toContain('<w:pStyle w:val="Title"/>');
    expect(doc.match(/<w:pStyle w:val="Title"\/>/g)).toHaveLength(1);
    for (const line of ['ועדת הערר לתכנון ובנייה מחוז המרכז', 'ערר 2024/25'])
      expect(paragraphOf(doc, line)).toContain(`<w:pStyle w:val="${HEADER_STYLE}"/>`);
    expect(get('word/styles.xml')).toContain(`w:styleId="${HEADER_STYLE}"`);
    // The header comes first, then the title.
    expect(doc.indexOf('ערר 2024/25<')).toBeLessThan(doc.indexOf('>החלטה<'));
  });

  it('has a footer on every page with the case number and the PAGE and NUMPAGES fields, right to left', async () => {
    const { doc, get } = await parts();
    expect(doc).toMatch(/<w:footerReference w:type="default" r:id="[^"]+"\/>/);
    const footer = get('word/footer1.xml');
    expect(footer).toContain('ערר 2024/25');
    expect(footer).toContain('>PAGE</w:instrText>');
    expect(footer).toContain('>NUMPAGES</w:instrText>');
    expect(footer).toContain('עמוד ');
    expect(footer).toContain(' מתוך ');
    expect(footer).toContain('<w:bidi/>');
  });

  it('lists the authorities before the signature block, and the signature lines after it', async () => {
    const { doc } = await parts();
    const authorities = doc.indexOf('>רשימת האסמכתאות<');
    const signature = doc.indexOf('>ניתנה היום בהעדר הצדדים.<');
    const table = doc.indexOf('<w:tbl>');
    expect(authorities).toBeGreaterThan(doc.indexOf('>הערר נדחה.<'));
    expect(authorities).toBeLessThan(signature);
    expect(doc.indexOf('3100/21', authorities)).toBeLessThan(signature);
    expect(signature).toBeLessThan(table);
    expect(doc.indexOf('</w:tbl>')).toBeGreaterThan(doc.lastIndexOf('>יעל שלום<'));
  });

  it('keeps the signature block together: kept with the lines, in one row that cannot split', async () => {
    const { doc } = await parts();
    const sig = paragraphOf(doc, 'ניתנה היום בהעדר הצדדים.');
    expect(sig).toContain('<w:keepNext/>');
    expect(sig).toContain('<w:keepLines/>');
    const table = doc.slice(doc.indexOf('<w:tbl>'), doc.indexOf('</w:tbl>'));
    expect(table).toContain('<w:bidiVisual/>');
    expect(table.match(/<w:tr>/g)).toHaveLength(1);
    expect(table).toContain('<w:cantSplit/>');
    // The chair first (the right-hand cell of a right-to-left table), each with the title under the name.
    const chair = table.indexOf('עו&quot;ד מיכל דוד');
    expect(chair).toBeGreaterThan(-1);
    expect(chair).toBeLessThan(table.indexOf('יעל שלום'));
    expect(chair).toBeLessThan(table.indexOf('יו&quot;ר הוועדה'));
    expect(table).toContain('חברת הוועדה');
    expect(table.match(/<w:tc>/g)).toHaveLength(2);
  });

  it('leaves blank lines under the role titles without a panel', async () => {
    const blank: Signer[] = [
      { name: null, title: 'יו"ר הוועדה' },
      { name: null, title: 'חבר הוועדה' },
      { name: null, title: 'חבר הוועדה' },
    ];
    const { doc } = await parts(blank);
    const table = doc.slice(doc.indexOf('<w:tbl>'), doc.indexOf('</w:tbl>'));
    expect(table.match(/<w:tc>/g)).toHaveLength(3);
    expect(table.match(/_{10,}/g)).toHaveLength(3);
    expect(table.match(/>חבר הוועדה</g)).toHaveLength(2);
  });

  it('names the case and the committee in the document properties', async () => {
    const { get } = await parts();
    const core = get('docProps/core.xml');
    expect(core).toContain('<dc:title>החלטה — ערר 2024/25: היטל השבחה — כפר סבא</dc:title>');
    expect(core).toContain('<dc:creator>ועדת הערר לתכנון ובנייה מחוז המרכז</dc:creator>');
    expect(core).not.toMatch(/chambers|Draft decision/);
    expect(get('docProps/app.xml')).toContain('<Company>ועדת הערר לתכנון ובנייה מחוז המרכז</Company>');
    // Without a header naming it, the committee's general name.
    const { get: bare } = await parts(PANEL, BLOCKS.slice(1));
    expect(bare('docProps/core.xml')).toContain(`<dc:creator>${COMMITTEE}</dc:creator>`);
  });

  it('reads back with every block anchored, the signature lines and the footer no block’s text', async () => {
    const { bytes, rendered } = await parts();
    const read = await readDocx(bytes);
    const blocks = mapBlocks(read, rendered);
    expect(blocks.map((b) => [b.key, b.found])).toEqual(BLOCKS.map((b) => [b.key, true]));
    expect(blocks.find((b) => b.key === 'signature')?.finalText).toBe('ניתנה היום בהעדר הצדדים.');
    expect(blocks.find((b) => b.key === 'discussion')?.finalText).toContain('3100/21');
    // The signature lines are the export's own text (frames), never assigned to a block.
    const names = read.paragraphs.filter((p) => p.accepted === 'יעל שלום');
    expect(names).toHaveLength(1);
    expect(names[0]?.frame).toBe(true);
    expect(acceptedText(read)).not.toContain('עמוד');
  });
});
