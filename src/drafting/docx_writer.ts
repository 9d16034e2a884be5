// The decision as a Word file (docs/drafting.md "The Word export"), built with the docx library to the Hebrew
// specification: every paragraph right-to-left (w:bidi), every run w:rtl with bold and size repeated on the
// complex-script properties (w:bCs, w:szCs) and a Hebrew font in the cs slot; the body justified, headings
// centred; the body's paragraphs numbered by one list; the header block as the document's heading; an
// appendix of the authorities cited. Each block sits in a content control (w:sdt) tagged kind|key|version and
// locked against deletion but not editing, and inside a bookmark from its first paragraph to its last; the
// blocks' exported text hashes are custom document properties. The file is one the chair signs: the header
// lines in the committee's header style and «החלטה» alone in the Title style, the list of authorities before
// the signatures, the panel's signature lines in a one-row table that cannot split (kept with the signature
// block above it), a footer with the case number and «עמוד X מתוך Y» (PAGE and NUMPAGES fields), and
// document properties naming the case and the committee. Runs only where the docx library is (a job
// handler: the extraction Worker or Node), so nothing from it is touched at module load.
import {
  AlignmentType,
  BookmarkEnd,
  BookmarkStart,
  BuilderElement,
  Document,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  type ParagraphChild,
  type Table,
  TextRun,
} from 'docx';
import {
  BLOCK_PROPERTY_PREFIX,
  bookmarkName,
  EXPORT_PROPERTY,
  FRAMES_PROPERTY,
  frameBookmarkName,
  sdtTag,
} from './anchors.ts';
import type { AssembledDraft, DraftPart } from './assemble.ts';
import { citedAuthorities } from './assemble.ts';
import { textHash } from './blocks.ts';
import { appXml, committeeOf, footer, type Signer, signatureTable } from './docx_page.ts';

/** The font of every run, in every slot (cs is the one Hebrew text uses). */
export const HEBREW_FONT = 'David';
/** Half-points: 12pt body and header lines, 13pt headings, 18pt the title «החלטה», 10pt the footer. */
const BODY_SIZE = 24;
const HEADING_SIZE = 26;
const TITLE_SIZE = 36;
/** The paragraph style of the header block's lines (the committee, the number, the parties). */
export const HEADER_STYLE = 'CommitteeHeader';
const NUMBERING = 'decision-paragraphs';
export const APPENDIX_HEADING = 'רשימת האסמכתאות';
/** The decision's title, under the header (the committee, the number, the parties). */
export const DECISION_TITLE = 'החלטה';
/** A content control's alias for the kinds without a heading. */
const ALIASES: Record<string, string> = { header: 'כותרת ההחלטה', signature: 'חתימה' };

/** Bookmark ids of frames start here, clear of the blocks' (index + 1). */
const FRAME_BOOKMARK_ID = 100_000;

export interface ExportMeta {
  caseId: string;
  caseNumber: string;
  blocksHash: string;
  /** The case's title, for the document's properties. */
  caseTitle: string;
  /** The signature lines, in order (the chair first). */
  signers: readonly Signer[];
}

export interface RenderedBlock {
  key: string;
  kind: string;
  version: number;
  text_hash: string;
  paragraphs: number;
}

const run = (text: string, bold = false, size = BODY_SIZE) =>
  new TextRun({
    text,
    rightToLeft: true,
    ...(bold ? { bold: true, boldComplexScript: true } : {}),
    size,
    sizeComplexScript: size,
    font: { ascii: HEBREW_FONT, hAnsi: HEBREW_FONT, cs: HEBREW_FONT },
  });

type Align = (typeof AlignmentType)[keyof typeof AlignmentType];

function para(
  text: string,
  o: {
    bold?: boolean;
    size?: number;
    align?: Align;
    heading?: (typeof HeadingLevel)[keyof typeof HeadingLevel];
    style?: string;
    /** Keep with the next paragraph, and keep the paragraph's lines on one page. */
    keep?: boolean;
    numbered?: boolean;
    before?: ParagraphChild[];
    after?: ParagraphChild[];
    wrap?: (r: TextRun) => ParagraphChild;
  } = {},
) {
  const r = run(text, o.bold ?? false, o.size ?? BODY_SIZE);
  return new Paragraph({
    bidirectional: true,
    alignment: o.align ?? AlignmentType.BOTH,
    ...(o.heading === undefined ? {} : { heading: o.heading }),
    ...(o.style === undefined ? {} : { style: o.style }),
    ...(o.keep === true ? { keepNext: true, keepLines: true } : {}),
    ...(o.numbered === true ? { numbering: { reference: NUMBERING, level: 0 } } : {}),
    spacing: { after: 120, line: 360 },
    children: [...(o.before ?? []), o.wrap === undefined ? r : o.wrap(r), ...(o.after ?? [])],
  });
}

/**
 * A content control around a paragraph's run, tagged with its block: one per paragraph of the block, inside
 * the paragraph. (LibreOffice 7.4 duplicates the text of a block-level control spanning paragraphs when it
 * saves, so the control wraps each paragraph's text and a bookmark spans the block.)
 */
function contentControl(tag: string, alias: string, id: number, child: TextRun): ParagraphChild {
  const el = (name: string, val: string) =>
    new BuilderElement<{ val: string }>({ name, attributes: { val: { key: 'w:val', value: val } } });
  const pr = new BuilderElement({
    name: 'w:sdtPr',
    children: [
      el('w:alias', alias),
      el('w:tag', tag),
      el('w:id', String(id)),
      // sdtLocked: the control cannot be deleted; its contents can be edited.
      el('w:lock', 'sdtLocked'),
    ],
  });
  const content = new BuilderElement({ name: 'w:sdtContent', children: [child] });
  return new BuilderElement({ name: 'w:sdt', children: [pr, content] }) as unknown as ParagraphChild;
}

type ParaOptions = Parameters<typeof para>[1];

/** Paragraphs outside the blocks, each inside its own frame bookmark. */
function frames() {
  let n = 0;
  const frame = (text: string, o: ParaOptions = {}) => {
    const i = n++;
    return para(text, {
      ...o,
      before: [new BookmarkStart(frameBookmarkName(i), FRAME_BOOKMARK_ID + i) as unknown as ParagraphChild],
      after: [new BookmarkEnd(FRAME_BOOKMARK_ID + i) as unknown as ParagraphChild],
    });
  };
  const heading = (text: string, level: 1 | 2) =>
    frame(text, {
      bold: true,
      size: HEADING_SIZE,
      align: level === 1 ? AlignmentType.CENTER : AlignmentType.BOTH,
      heading: level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
    });
  return { frame, heading, count: () => n };
}

function blockParagraphs(part: DraftPart, index: number, tag: string, alias: string): Paragraph[] {
  const header = part.kind === 'header';
  const last = part.paragraphs.length - 1;
  return part.paragraphs.map((p, i) =>
    para(p.text, {
      bold: header,
      align: header ? AlignmentType.CENTER : AlignmentType.BOTH,
      ...(header ? { style: HEADER_STYLE } : {}),
      // The signature block stays on the page of the signature lines that follow it.
      keep: part.kind === 'signature',
      numbered: p.n !== null,
      wrap: (r) => contentControl(tag, alias, index * 1000 + i + 1, r),
      // A bookmark from the block's first paragraph to its last: a second anchor, kept where a content control is not.
      before: i === 0 ? [new BookmarkStart(bookmarkName(index), index + 1) as unknown as ParagraphChild] : [],
      after: i === last ? [new BookmarkEnd(index + 1) as unknown as ParagraphChild] : [],
    }),
  );
}

/** The DOCX of an assembled draft, and the blocks it holds with their exported text hashes. */
export async function renderDocx(
  draft: AssembledDraft,
  meta: ExportMeta,
): Promise<{ bytes: Uint8Array; blocks: RenderedBlock[] }> {
  const body: (Paragraph | Table)[] = [];
  let signed = false;
  const blocks: RenderedBlock[] = [];
  const { frame, heading, count } = frames();
  // The title stands after the header (or first, without one), in a frame of its own: no block's text.
  const titled = () =>
    body.push(
      frame(DECISION_TITLE, {
        bold: true,
        size: TITLE_SIZE,
        align: AlignmentType.CENTER,
        heading: HeadingLevel.TITLE,
      }),
    );
  // The authorities close the reasoning: before the signature block, or at the end without one.
  const authorities = citedAuthorities(draft, meta.caseNumber);
  let listed = false;
  const listAuthorities = () => {
    if (listed || authorities.length === 0) return;
    listed = true;
    body.push(heading(APPENDIX_HEADING, 1));
    for (const a of authorities) body.push(frame(a, { align: AlignmentType.BOTH }));
  };
  if (draft.parts[0]?.kind !== 'header') titled();
  draft.parts.forEach((part, at) => {
    if (part.kind === 'signature') listAuthorities();
    if (at > 0 && part.kind !== 'header' && draft.parts[at - 1]?.kind === 'header') titled();
    if (part.heading !== null) body.push(heading(part.heading, 1));
    if (part.subheading !== null) body.push(heading(part.subheading, 2));
    // The signature lines follow the signature block, kept on its page.
    const sign = () => {
      if (part.kind !== 'signature' || signed) return;
      signed = true;
      body.push(signatureTable(meta.signers, frame));
    };
    if (part.placeholder || part.key === null || part.version === null) {
      for (const p of part.paragraphs)
        body.push(frame(p.text, { bold: true, keep: part.kind === 'signature' }));
      sign();
      return;
    }
    const i = blocks.length;
    const text = part.paragraphs.map((p) => p.text).join('\n');
    blocks.push({
      key: part.key,
      kind: part.kind,
      version: part.version,
      text_hash: textHash(text),
      paragraphs: part.paragraphs.length,
    });
    body.push(
      ...blockParagraphs(
        part,
        i,
        sdtTag(part.kind, part.key, part.version),
        part.subheading ?? part.heading ?? ALIASES[part.kind] ?? part.kind,
      ),
    );
    sign();
  });
  listAuthorities();
  if (!signed) body.push(signatureTable(meta.signers, frame));
  const committee = committeeOf(draft);
  const font = { ascii: HEBREW_FONT, hAnsi: HEBREW_FONT, cs: HEBREW_FONT };
  const headingRun = (size: number) => ({
    font,
    size,
    sizeComplexScript: size,
    bold: true,
    boldComplexScript: true,
    rightToLeft: true,
    color: '000000',
  });
  const doc = new Document({
    title: `${DECISION_TITLE} — ${meta.caseNumber}: ${meta.caseTitle}`,
    subject: meta.caseTitle,
    creator: committee,
    lastModifiedBy: committee,
    keywords: meta.caseNumber,
    description: `${DECISION_TITLE} ב${meta.caseNumber}`,
    customProperties: [
      { name: EXPORT_PROPERTY, value: `${meta.caseId}|${meta.blocksHash}` },
      { name: FRAMES_PROPERTY, value: String(count()) },
      ...blocks.map((b, i) => ({
        name: `${BLOCK_PROPERTY_PREFIX}${i}`,
        value: `${b.kind}|${b.key}|${b.version}|${b.text_hash}|${bookmarkName(i)}`,
      })),
    ],
    styles: {
      paragraphStyles: [
        {
          id: HEADER_STYLE,
          name: 'Committee Header',
          basedOn: 'Normal',
          next: 'Normal',
          quickFormat: true,
          run: { ...headingRun(BODY_SIZE) },
          paragraph: { alignment: AlignmentType.CENTER, spacing: { after: 60 } },
        },
      ],
      default: {
        document: {
          run: { font, size: BODY_SIZE, sizeComplexScript: BODY_SIZE, rightToLeft: true },
          paragraph: { rightToLeft: true } as never,
        },
        title: {
          run: headingRun(TITLE_SIZE),
          paragraph: { alignment: AlignmentType.CENTER, spacing: { before: 360, after: 360 } },
        },
        heading1: {
          run: headingRun(HEADING_SIZE),
          paragraph: { alignment: AlignmentType.CENTER, spacing: { before: 240, after: 120 } },
        },
        heading2: {
          run: { ...headingRun(BODY_SIZE), underline: {} },
          paragraph: { spacing: { before: 200, after: 100 } },
        },
      },
    },
    numbering: {
      config: [
        {
          reference: NUMBERING,
          levels: [
            {
              level: 0,
              format: LevelFormat.DECIMAL,
              text: '%1.',
              alignment: AlignmentType.START,
              style: {
                paragraph: { indent: { start: 567, hanging: 567 } },
                run: { font, rightToLeft: true, size: BODY_SIZE, sizeComplexScript: BODY_SIZE },
              },
            },
          ],
        },
      ],
    },
    sections: [
      {
        properties: { page: { margin: { top: 1440, bottom: 1440, left: 1440, right: 1440 } } },
        footers: { default: footer(meta.caseNumber) },
        children: body,
      },
    ],
  });
  // The library writes an empty docProps/app.xml: the committee goes in as the file's company.
  const buffer = await Packer.toArrayBuffer(doc, false, [
    { path: 'docProps/app.xml', data: appXml(committee) },
  ]);
  return { bytes: new Uint8Array(buffer), blocks };
}
