import { ExtractionError } from './errors.ts';
import { MAX_DOCX_INFLATED_BYTES } from './media.ts';
import { type XmlToken, xmlTokens } from './xml.ts';
import { readZipEntries, ZipError } from './zip.ts';

/**
 * A DOCX's text as it reads, page by page (README "Documents": "Pages", "Word as it reads").
 * - Paragraphs are lines; a table row is one line, its non-empty cells in order joined by " | ".
 * - Pages follow the document: explicit page breaks (w:br w:type="page", pageBreakBefore), section breaks
 *   that start a new page, and the breaks Word recorded when it last laid the document out
 *   (w:lastRenderedPageBreak). A document without any is cut at paragraph boundaries into pages of about
 *   PAGE_CHARS characters, and no page grows past MAX_PAGE_CHARS, so one page always fits one
 *   document_text_get call and the page numbers stay the same from run to run.
 * - Footnotes are kept out of the running text: a reference is "[n]", the note itself goes under a marked
 *   line at the foot of the page that cites it. Endnotes, headers and footers go after the body, marked.
 * - Deleted tracked text, field codes and the fallback copy of drawings are not text.
 */
export async function extractDocxPages(bytes: Uint8Array): Promise<string[]> {
  let parts: Map<string, Uint8Array>;
  try {
    parts = await readZipEntries(bytes, (name) => WANTED.test(name), {
      maxInflatedBytes: MAX_DOCX_INFLATED_BYTES,
    });
  } catch (e) {
    if (e instanceof ZipError) {
      throw new ExtractionError(
        e.failure,
        e.failure === 'too_large'
          ? `The DOCX is too large: ${e.message}`
          : `The DOCX cannot be read: ${e.message}`,
        { cause: e },
      );
    }
    throw e;
  }
  const decoder = new TextDecoder();
  const text = (name: string) => {
    const part = parts.get(name);
    return part === undefined ? undefined : decoder.decode(part);
  };
  const body = text('word/document.xml');
  if (body === undefined) {
    throw new ExtractionError('broken', 'The DOCX cannot be read: it has no word/document.xml');
  }
  const footnotes = readNotes(text('word/footnotes.xml'), 'w:footnote');
  const endnotes = readNotes(text('word/endnotes.xml'), 'w:endnote');
  const pages = readBody(body, footnotes);
  const tail: string[] = [];
  const endnoteLines = [...endnotes].map(([id, note]) => `[${id}] ${note}`);
  if (endnoteLines.length > 0) tail.push(ENDNOTES_MARK, ...endnoteLines);
  const furniture = [
    ...new Set(
      [...parts.keys()]
        .filter((n) => /^word\/(header|footer)\d*\.xml$/.test(n))
        .sort(byNumber)
        .map((n) =>
          paragraphsOf(text(n) ?? '')
            .join('\n')
            .trim(),
        )
        .filter((t) => t !== ''),
    ),
  ];
  if (furniture.length > 0) tail.push(HEADERS_MARK, ...furniture);
  if (tail.length > 0) pages.push(...cut([...(pages.pop() ?? '').split('\n'), '', ...tail], MAX_PAGE_CHARS));
  return pages;
}

const WANTED = /^word\/(document|footnotes|endnotes|header\d*|footer\d*)\.xml$/;
export const FOOTNOTES_MARK = '— הערות שוליים —';
export const ENDNOTES_MARK = '— הערות סיום —';
export const HEADERS_MARK = '— כותרות עליונות ותחתונות —';
/** A page cut from a document without page breaks: about a printed page of Hebrew text. */
export const PAGE_CHARS = 4_000;
/** No page is longer (the document_text_get call cap is 60,000 characters). */
export const MAX_PAGE_CHARS = 12_000;

/** Headers before footers, each by number. */
const byNumber = (a: string, b: string) =>
  Number(a.includes('footer')) - Number(b.includes('footer')) || a.localeCompare(b, 'en', { numeric: true });

/** The notes of footnotes.xml / endnotes.xml by id, without the separator notes. */
function readNotes(xml: string | undefined, element: string): Map<string, string> {
  const out = new Map<string, string>();
  if (xml === undefined) return out;
  let id: string | null = null;
  let buf: string[] = [];
  const reader = paragraphReader((line) => buf.push(line));
  for (const t of xmlTokens(xml)) {
    if (t.name === element && t.text === null) {
      if (!t.close && !t.selfClosing) {
        const type = t.attrs['w:type'];
        id = type === undefined || type === 'normal' ? (t.attrs['w:id'] ?? null) : null;
        buf = [];
      } else if (t.close) {
        const note = buf.join(' ').trim();
        if (id !== null && note !== '') out.set(id, note);
        id = null;
      }
      continue;
    }
    if (id !== null) reader.token(t);
  }
  return out;
}

/** The lines of a part with no pages of its own (a header, a footer). */
function paragraphsOf(xml: string): string[] {
  const lines: string[] = [];
  const reader = paragraphReader((line) => lines.push(line));
  for (const t of xmlTokens(xml)) reader.token(t);
  return lines;
}

interface Table {
  row: string[] | null;
  cell: string[] | null;
}

/**
 * Paragraph and table text from a stream of tokens: `emit` gets each finished line (a paragraph, or a table
 * row). `onBreak` hears page breaks where they fall; `onNote` footnote references.
 */
function paragraphReader(
  emit: (line: string) => void,
  hooks: {
    onBreak?: (inTable: boolean) => void;
    onNote?: (id: string) => void;
    /** Every other tag, and each paragraph's end. */
    onOther?: (t: XmlToken) => void;
  } = {},
) {
  let para = '';
  let inText = false;
  let skip = 0;
  const tables: Table[] = [];
  const out = (line: string) => {
    const table = tables.at(-1);
    if (table?.cell != null) table.cell.push(line);
    else emit(line);
  };
  const flush = () => {
    const line = para.replace(/[ \t\u00a0]+/g, ' ').trim();
    para = '';
    if (line !== '') out(line);
  };
  return {
    flush,
    token(t: XmlToken) {
      if (t.text !== null) {
        if (inText && skip === 0) para += t.text;
        return;
      }
      const open = !t.close;
      const empty = open && t.selfClosing;
      switch (t.name) {
        // Deleted text, moved-away text and drawings' fallback copies are not the text as it reads.
        case 'w:del':
        case 'w:moveFrom':
        case 'mc:Fallback':
        case 'w:instrText':
          if (!empty) skip += open ? 1 : -1;
          return;
        case 'w:t':
          inText = open && !empty;
          return;
        case 'w:tab':
        case 'w:ptab':
          if (open && skip === 0) para += '\t';
          return;
        case 'w:noBreakHyphen':
          if (open && skip === 0) para += '-';
          return;
        case 'w:cr':
          if (open && skip === 0) para += '\n';
          return;
        case 'w:br':
          if (!open || skip > 0) return;
          if (t.attrs['w:type'] === 'page') {
            flush();
            hooks.onBreak?.(tables.length > 0);
          } else para += '\n';
          return;
        case 'w:lastRenderedPageBreak':
          if (open && skip === 0) {
            flush();
            hooks.onBreak?.(tables.length > 0);
          }
          return;
        case 'w:footnoteReference':
          if (open && skip === 0 && t.attrs['w:id'] !== undefined) {
            para += `[${t.attrs['w:id']}]`;
            hooks.onNote?.(t.attrs['w:id']);
          }
          return;
        case 'w:endnoteReference':
          if (open && skip === 0 && t.attrs['w:id'] !== undefined) para += `[${t.attrs['w:id']}]`;
          return;
        case 'w:p':
          if (t.close || empty) {
            // A paragraph inside a text box is its own line: finish the one around it so far.
            flush();
            if (t.close) hooks.onOther?.(t);
          } else if (para !== '') flush();
          return;
        case 'w:tbl':
          if (empty) return;
          if (open) {
            flush();
            tables.push({ row: null, cell: null });
          } else tables.pop();
          return;
        case 'w:tr': {
          const table = tables.at(-1);
          if (table === undefined || empty) return;
          if (open) table.row = [];
          else {
            const row = (table.row ?? []).filter((c) => c !== '').join(' | ');
            table.row = null;
            // A nested table's rows belong to the cell around it.
            const parent = tables.at(-2);
            if (row === '') break;
            if (parent?.cell != null) parent.cell.push(row);
            else emit(row);
          }
          return;
        }
        case 'w:tc': {
          const table = tables.at(-1);
          if (table === undefined || empty) return;
          if (open) table.cell = [];
          else {
            flush();
            table.row?.push((table.cell ?? []).join(' ').trim());
            table.cell = null;
          }
          return;
        }
        default:
          hooks.onOther?.(t);
      }
    },
  };
}

/** The body's pages: breaks where the document has them, footnotes at the foot of the page citing them. */
function readBody(xml: string, footnotes: Map<string, string>): string[] {
  const pages: { lines: string[]; notes: string[] }[] = [{ lines: [], notes: [] }];
  let broke = false;
  let pendingBreak = false;
  let sectionEnds = false;
  let section = 0;
  // For each section in order, whether it starts on the page where the one before it ended.
  const onSamePage = [...xml.matchAll(/<w:sectPr\b(?:[^>]*\/>|[\s\S]*?<\/w:sectPr>)/g)].map((m) =>
    /<w:type\s+w:val="(continuous|nextColumn)"/.test(m[0]),
  );
  const page = () => pages.at(-1) as { lines: string[]; notes: string[] };
  const newPage = () => {
    broke = true;
    // Word records a rendered break next to an explicit one: no empty pages.
    if (page().lines.length > 0) pages.push({ lines: [], notes: [] });
  };
  const reader = paragraphReader(
    (line) => {
      if (pendingBreak) {
        pendingBreak = false;
        newPage();
      }
      page().lines.push(line);
    },
    {
      // Inside a table the row is one line: the break goes before the row that holds it.
      onBreak: (inTable) => {
        if (inTable) pendingBreak = true;
        else newPage();
      },
      onNote: (id) => {
        if (!page().notes.includes(id)) page().notes.push(id);
      },
      onOther: (t) => {
        if (
          t.name === 'w:pageBreakBefore' &&
          !t.close &&
          t.attrs['w:val'] !== 'false' &&
          t.attrs['w:val'] !== '0'
        ) {
          reader.flush();
          newPage();
        } else if (t.name === 'w:sectPr' && !t.close) {
          sectionEnds = true;
        } else if (t.name === 'w:p' && t.close) {
          // A paragraph holding a sectPr ends its section; the next section's type says whether a new page
          // begins (continuous and next-column sections go on on the same page).
          if (sectionEnds && !onSamePage[++section]) newPage();
          sectionEnds = false;
        }
      },
    },
  );
  let inParagraph = 0;
  for (const t of xmlTokens(xml)) {
    if (t.name === 'w:p' && t.text === null && !t.selfClosing) inParagraph += t.close ? -1 : 1;
    // The body's own sectPr (after the last paragraph) is the last section: no break after it.
    if (t.name === 'w:sectPr' && inParagraph === 0) continue;
    reader.token(t);
  }
  reader.flush();
  const texts = pages.map(({ lines, notes }) => {
    const noteLines = notes.flatMap((id) => {
      const note = footnotes.get(id);
      return note === undefined ? [] : [`[${id}] ${note}`];
    });
    return noteLines.length === 0 ? lines : [...lines, '', FOOTNOTES_MARK, ...noteLines];
  });
  return texts.flatMap((lines) => cut(lines, broke ? MAX_PAGE_CHARS : PAGE_CHARS));
}

/** Cuts a page's lines into pages of at most `max` characters, at line boundaries (a longer line alone). */
function cut(lines: string[], max: number): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (current.length > 0 && size + line.length + 1 > max) {
      out.push(current.join('\n'));
      current = [];
      size = 0;
    }
    for (let at = 0; at < line.length; at += MAX_PAGE_CHARS) {
      const piece = line.slice(at, at + MAX_PAGE_CHARS);
      if (at > 0) {
        out.push(current.join('\n'));
        current = [];
        size = 0;
      }
      current.push(piece);
      size += piece.length + 1;
    }
    if (line === '') current.push('');
  }
  out.push(current.join('\n'));
  return out;
}
