import mammoth from 'mammoth';
import { ExtractionError } from './errors.ts';
import { MAX_DOCX_INFLATED_BYTES } from './media.ts';

/**
 * DOCX has no pages of its own (pagination is the word processor's layout). Explicit page breaks
 * (w:br w:type="page") are taken as page separators, so a document whose author broke pages keeps them;
 * otherwise the whole document is page 1. Text comes from mammoth, paragraph by paragraph.
 */
export async function extractDocxPages(bytes: Uint8Array): Promise<string[]> {
  checkInflatedSize(bytes);
  let html: string;
  try {
    const arrayBuffer = bytes.slice().buffer;
    // Node's mammoth reads `buffer`, its browser/Workers build `arrayBuffer`: give both.
    const input = { buffer: bytes, arrayBuffer } as unknown as { arrayBuffer: ArrayBuffer };
    const result = await mammoth.convertToHtml(input, {
      transformDocument: markPageBreaks,
      ignoreEmptyParagraphs: false,
    });
    html = result.value;
  } catch (e) {
    throw new ExtractionError(
      'broken',
      `The DOCX cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      {
        cause: e,
      },
    );
  }
  return htmlToText(html).split('\f');
}

interface MammothElement {
  type: string;
  breakType?: string;
  children?: MammothElement[];
  value?: string;
}

/** Replaces every page break with a form feed in the text (mammoth's HTML drops page breaks). */
function markPageBreaks<T>(element: T): T {
  const walk = (el: MammothElement): MammothElement => {
    if (el.type === 'break' && el.breakType === 'page') return { type: 'text', value: '\f' };
    if (el.children) el.children = el.children.map(walk);
    return el;
  };
  return walk(element as unknown as MammothElement) as unknown as T;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** mammoth's HTML (p, h1–h6, li, tables, br) to text: one line per block. */
function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<\/(p|h[1-6]|li|tr|td|th|table|ul|ol)>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, e: string) => ENTITIES[e] ?? '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/\n{3,}/g, '\n\n');
}

/** Sums the uncompressed sizes in the ZIP central directory, refusing a zip bomb before mammoth inflates it. */
function checkInflatedSize(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ExtractionError('broken', 'The DOCX is not a complete ZIP archive');
  const entries = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
      throw new ExtractionError('broken', 'The DOCX has a damaged ZIP directory');
    }
    total += view.getUint32(at + 24, true);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  if (total > MAX_DOCX_INFLATED_BYTES) {
    throw new ExtractionError(
      'too_large',
      `The DOCX inflates to ${total} bytes; the limit is ${MAX_DOCX_INFLATED_BYTES}`,
    );
  }
}
