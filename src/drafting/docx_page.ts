// The parts of the Word export around the blocks (docs/drafting.md "The Word export"): the footer with the
// case number and the page fields, the panel's signature lines, and the properties naming the committee.
import {
  AlignmentType,
  BorderStyle,
  Footer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { AssembledDraft } from './assemble.ts';

/** The committee that signs, when the header does not name it. */
export const COMMITTEE = 'ועדת הערר לתכנון ובנייה';
/** Half-points: 10pt. */
const FOOTER_SIZE = 20;

/** One signature line: the signer's name (null: a blank line to sign on) and the title under it. */
export interface Signer {
  name: string | null;
  title: string;
}

/** A paragraph of the export's own text (a frame), as docx_writer makes it. */
export type FrameMaker = (
  text: string,
  o: { align: (typeof AlignmentType)[keyof typeof AlignmentType]; bold?: boolean; keep?: boolean },
) => Paragraph;

/** The footer of every page: the case number, and «עמוד X מתוך Y» from the PAGE and NUMPAGES fields. */
export function footer(caseNumber: string): Footer {
  const small = { rightToLeft: true, size: FOOTER_SIZE, sizeComplexScript: FOOTER_SIZE };
  return new Footer({
    children: [
      new Paragraph({
        bidirectional: true,
        alignment: AlignmentType.CENTER,
        border: { top: { style: BorderStyle.SINGLE, size: 4, color: '808080', space: 4 } },
        children: [
          new TextRun({ ...small, text: `${caseNumber}  ·  ` }),
          new TextRun({
            ...small,
            children: ['עמוד ', PageNumber.CURRENT, ' מתוך ', PageNumber.TOTAL_PAGES],
          }),
        ],
      }),
    ],
  });
}

/**
 * The signature lines: one row, a cell per signer (right to left, the chair first), that cannot split across
 * pages; each cell a line to sign on, the name, and the title. Its paragraphs are frames: the export's text,
 * not a block's.
 */
export function signatureTable(signers: readonly Signer[], frame: FrameMaker): Table {
  const none = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' };
  const width = Math.floor(9000 / Math.max(1, signers.length));
  const cell = (s: Signer) =>
    new TableCell({
      width: { size: width, type: WidthType.DXA },
      borders: { top: none, bottom: none, left: none, right: none },
      children: [
        frame('____________________', { align: AlignmentType.CENTER, keep: true }),
        frame(s.name ?? ' ', { align: AlignmentType.CENTER, bold: true, keep: true }),
        frame(s.title, { align: AlignmentType.CENTER }),
      ],
    });
  return new Table({
    visuallyRightToLeft: true,
    width: { size: 9000, type: WidthType.DXA },
    columnWidths: signers.map(() => width),
    borders: {
      top: none,
      bottom: none,
      left: none,
      right: none,
      insideHorizontal: none,
      insideVertical: none,
    },
    rows: [new TableRow({ cantSplit: true, children: signers.map(cell) })],
  });
}

const escapeXml = (t: string) =>
  t.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** docProps/app.xml naming the committee as the file's company. */
export const appXml = (committee: string) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ' +
  'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
  `<Company>${escapeXml(committee)}</Company></Properties>`;

/** The committee the decision is of: the header's line that names an appeals committee, else COMMITTEE. */
export function committeeOf(draft: AssembledDraft): string {
  const header = draft.parts.find((p) => p.kind === 'header' && !p.placeholder);
  const line = header?.paragraphs.map((p) => p.text.trim()).find((t) => /ועדת\s+(?:ה)?ערר/.test(t));
  return line ?? COMMITTEE;
}
