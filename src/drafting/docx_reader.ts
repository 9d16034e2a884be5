// Reading a DOCX back (docs/drafting.md "The final version"): each paragraph's text with every tracked
// revision accepted and with every one rejected, the revisions themselves (author, date, inserted or deleted
// text), the comments and the text they are anchored to, and which block each paragraph belongs to: by the
// content control's tag (kind|key|version, where the editor kept it) or by the block's bookmark (kept by
// every editor we know). A plain tokenizer over the XML (src/documents/xml.ts): no heavy library.
import type { FinalComment, TrackedChange } from '../db/schema/drafting.ts';
import { xmlTokens as tokens } from '../documents/xml.ts';
import { BLOCK_BOOKMARK, FRAME_BOOKMARK } from './anchors.ts';
import { readZipTexts } from './zip.ts';

export interface BlockAnchor {
  /** From the content control's tag. */
  tag: { kind: string; key: string; version: number } | null;
  /** The index in chambers_block_<i>, from the bookmark. */
  bookmark: number | null;
}

export interface ReadParagraph {
  accepted: string;
  rejected: string;
  numbered: boolean;
  anchor: BlockAnchor | null;
  /** Written by the export outside the blocks (a heading, a placeholder, the appendix): in a frame bookmark. */
  frame: boolean;
  changes: TrackedChange[];
}

export interface ReadComment extends FinalComment {
  id: string;
  anchor: BlockAnchor | null;
  /** The index in `paragraphs` of the paragraph where the comment starts. */
  paragraph: number;
}

export interface ReadDocx {
  paragraphs: ReadParagraph[];
  comments: ReadComment[];
  properties: Map<string, string>;
}

export function parseTag(tag: string | null): BlockAnchor['tag'] {
  const m = tag === null ? null : /^([a-z_]+)\|([^|]+)\|(\d+)$/.exec(tag);
  return m === null ? null : { kind: m[1] ?? '', key: m[2] ?? '', version: Number(m[3]) };
}

/** The paragraphs of word/document.xml's body, with revisions and anchors, and where comments start. */
function readDocument(xml: string) {
  const paragraphs: ReadParagraph[] = [];
  const commentAnchors = new Map<string, { anchor: BlockAnchor | null; paragraph: number; text: string }>();
  const openComments = new Set<string>();
  const sdts: { tag: string | null; inPr: boolean }[] = [];
  const bookmarks = new Map<string, number>();
  const frameBookmarks = new Set<string>();
  const revisions: { type: 'insertion' | 'deletion'; author: string | null; date: string | null }[] = [];
  let para: (ReadParagraph & { bookmark: number | null; tag: BlockAnchor['tag'] }) | null = null;
  let depth = 0;
  let inRun = false;
  let inPPr = false;
  let textOf: 't' | 'delText' | null = null;

  const sdtAnchor = () => {
    for (let i = sdts.length - 1; i >= 0; i--) {
      const t = parseTag(sdts[i]?.tag ?? null);
      if (t !== null) return t;
    }
    return null;
  };
  const firstBookmark = () => (bookmarks.size === 0 ? null : Math.min(...bookmarks.values()));
  // The change the text just read belongs to; unrevised text between two revisions ends it, so two
  // separate insertions in one paragraph stay two changes.
  let running: TrackedChange | null = null;
  const add = (text: string, deleted: boolean) => {
    if (para === null) return;
    const rev = revisions.at(-1);
    if (deleted) para.rejected += text;
    else if (rev?.type === 'insertion') para.accepted += text;
    else {
      para.accepted += text;
      para.rejected += text;
      for (const id of openComments) {
        const c = commentAnchors.get(id);
        if (c !== undefined) c.text += text;
      }
    }
    if (rev === undefined) running = null;
    else {
      const type = deleted ? 'deletion' : rev.type;
      const last = running;
      if (last !== null && last.type === type && last.author === rev.author && last.date === rev.date)
        last.text += text;
      else {
        running = { type, author: rev.author, date: rev.date, text };
        para.changes.push(running);
      }
    }
    if (rev?.type === 'insertion' && !deleted)
      for (const id of openComments) {
        const c = commentAnchors.get(id);
        if (c !== undefined) c.text += text;
      }
  };

  for (const t of tokens(xml)) {
    if (t.text !== null) {
      if (textOf !== null) add(t.text, textOf === 'delText');
      continue;
    }
    const open = !t.close;
    switch (t.name) {
      case 'w:p':
        if (open && !t.selfClosing) {
          depth++;
          if (depth === 1) {
            running = null;
            para = {
              accepted: '',
              rejected: '',
              numbered: false,
              anchor: null,
              frame: frameBookmarks.size > 0,
              changes: [],
              bookmark: firstBookmark(),
              tag: sdtAnchor(),
            };
          }
        } else if (t.close) {
          depth--;
          if (depth === 0 && para !== null) {
            const { bookmark, tag, ...rest } = para;
            paragraphs.push({
              ...rest,
              anchor: tag === null && bookmark === null ? null : { tag, bookmark },
            });
            para = null;
          }
        }
        break;
      case 'w:pPr':
        inPPr = open && !t.selfClosing;
        break;
      case 'w:numPr':
        if (open && inPPr && para !== null) para.numbered = true;
        break;
      case 'w:r':
        inRun = open && !t.selfClosing;
        break;
      case 'w:t':
        textOf = open && !t.selfClosing ? 't' : null;
        break;
      case 'w:delText':
        textOf = open && !t.selfClosing ? 'delText' : null;
        break;
      case 'w:tab':
        if (inRun && open) add('\t', revisions.at(-1)?.type === 'deletion');
        break;
      case 'w:br':
      case 'w:cr':
        if (inRun && open) add(' ', revisions.at(-1)?.type === 'deletion');
        break;
      case 'w:ins':
      case 'w:moveTo':
      case 'w:del':
      case 'w:moveFrom': {
        // Inside w:rPr (a paragraph mark's revision) they are empty elements: nothing to track.
        if (t.selfClosing) break;
        if (open)
          revisions.push({
            type: t.name === 'w:ins' || t.name === 'w:moveTo' ? 'insertion' : 'deletion',
            author: t.attrs['w:author'] ?? null,
            date: t.attrs['w:date'] ?? null,
          });
        else revisions.pop();
        break;
      }
      case 'w:sdt':
        if (open && !t.selfClosing) sdts.push({ tag: null, inPr: false });
        else if (t.close) sdts.pop();
        break;
      case 'w:sdtPr': {
        const top = sdts.at(-1);
        if (top !== undefined) top.inPr = open && !t.selfClosing;
        break;
      }
      case 'w:tag': {
        const top = sdts.at(-1);
        if (top?.inPr === true && open) {
          top.tag = t.attrs['w:val'] ?? null;
          // A control inside the paragraph tags the paragraph.
          if (para !== null) para.tag = para.tag ?? parseTag(top.tag);
        }
        break;
      }
      case 'w:bookmarkStart': {
        if (FRAME_BOOKMARK.test(t.attrs['w:name'] ?? '')) {
          frameBookmarks.add(t.attrs['w:id'] ?? '');
          if (para !== null) para.frame = true;
          break;
        }
        const m = BLOCK_BOOKMARK.exec(t.attrs['w:name'] ?? '');
        if (m !== null) {
          const i = Number(m[1]);
          bookmarks.set(t.attrs['w:id'] ?? '', i);
          if (para !== null) para.bookmark = para.bookmark ?? i;
        }
        break;
      }
      case 'w:bookmarkEnd':
        bookmarks.delete(t.attrs['w:id'] ?? '');
        frameBookmarks.delete(t.attrs['w:id'] ?? '');
        break;
      case 'w:commentRangeStart': {
        const id = t.attrs['w:id'] ?? '';
        const tag = para?.tag ?? sdtAnchor();
        const bookmark = para?.bookmark ?? firstBookmark();
        commentAnchors.set(id, {
          anchor: tag === null && bookmark === null ? null : { tag, bookmark },
          // The paragraph being read, or the next one when the range starts between paragraphs.
          paragraph: paragraphs.length,
          text: '',
        });
        openComments.add(id);
        break;
      }
      case 'w:commentRangeEnd':
        openComments.delete(t.attrs['w:id'] ?? '');
        break;
      default:
        break;
    }
  }
  return { paragraphs, commentAnchors };
}

function readComments(xml: string | undefined) {
  const out: { id: string; author: string | null; date: string | null; text: string }[] = [];
  if (xml === undefined) return out;
  let current: (typeof out)[number] | null = null;
  let inT = false;
  let paras = 0;
  for (const t of tokens(xml)) {
    if (t.text !== null) {
      if (inT && current !== null) current.text += t.text;
      continue;
    }
    if (t.name === 'w:comment') {
      if (!t.close) {
        current = {
          id: t.attrs['w:id'] ?? '',
          author: t.attrs['w:author'] ?? null,
          date: t.attrs['w:date'] ?? null,
          text: '',
        };
        paras = 0;
      } else if (current !== null) {
        out.push({ ...current, text: current.text.trim() });
        current = null;
      }
    } else if (t.name === 'w:p' && !t.close && current !== null) {
      if (paras++ > 0) current.text += '\n';
    } else if (t.name === 'w:t') inT = !t.close && !t.selfClosing;
  }
  return out;
}

function readProperties(xml: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (xml === undefined) return out;
  // <property name="…"><vt:lpwstr>value</vt:lpwstr></property>
  let name: string | null = null;
  let value: string | null = null;
  for (const t of tokens(xml)) {
    if (t.name === 'property') {
      if (!t.close && !t.selfClosing) name = t.attrs.name ?? null;
      else name = null;
    } else if (t.name === 'vt:lpwstr' && name !== null) {
      if (!t.close && !t.selfClosing) value = '';
      else {
        if (value !== null) out.set(name, value);
        value = null;
      }
    } else if (t.text !== null && value !== null) value += t.text;
  }
  return out;
}

/** Reads a DOCX: paragraphs with revisions and block anchors, comments, custom properties. */
export async function readDocx(bytes: Uint8Array): Promise<ReadDocx> {
  const parts = await readZipTexts(bytes, ['word/document.xml', 'word/comments.xml', 'docProps/custom.xml']);
  const doc = parts.get('word/document.xml');
  if (doc === undefined) throw new Error('not a Word document (no word/document.xml)');
  const { paragraphs, commentAnchors } = readDocument(doc);
  const comments = readComments(parts.get('word/comments.xml')).map((c) => {
    const at = commentAnchors.get(c.id);
    return {
      ...c,
      anchor: at?.anchor ?? null,
      paragraph: at?.paragraph ?? -1,
      anchored_text: at?.text.trim() ?? '',
    };
  });
  return { paragraphs, comments, properties: readProperties(parts.get('docProps/custom.xml')) };
}
