import { ToolError } from '../contract/errors.ts';
import type { DocumentMediaType } from '../db/schema/documents.ts';
import { imageSize } from './ocr/image_size.ts';

export const PDF = 'application/pdf';
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Size caps, checked before anything is decoded or parsed (payload_too_large):
 * - bytes of a PDF: 20 MiB; of a DOCX: 10 MiB; of plain text or Markdown: 2 MiB; of a PNG, JPEG or TIFF
 *   image: 20 MiB, and no image (or TIFF page) over 100 megapixels, judged from its header;
 * - base64 text is refused by its length before decoding (4 characters per 3 bytes);
 * - after upload, while reading (the document fails permanently, with the reason): a DOCX's parts inflate
 *   to at most 50 MiB, counted as they inflate (zip bombs; the sizes in the ZIP headers are not trusted);
 *   a PDF's content, object and font streams to at most 256 MiB, measured before pdf.js opens it, and no
 *   image in it over 100 megapixels; at most 2,000 pages and 5,000,000 characters; at most 60 s per read.
 */
export const MAX_BYTES: Record<DocumentMediaType, number> = {
  'application/pdf': 20 * 1024 * 1024,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 10 * 1024 * 1024,
  'text/plain': 2 * 1024 * 1024,
  'text/markdown': 2 * 1024 * 1024,
  'image/png': 20 * 1024 * 1024,
  'image/jpeg': 20 * 1024 * 1024,
  'image/tiff': 20 * 1024 * 1024,
};
export const MAX_ANY_BYTES = Math.max(...Object.values(MAX_BYTES));
export const MAX_DOCX_INFLATED_BYTES = 50 * 1024 * 1024;
export const MAX_PDF_INFLATED_BYTES = 256 * 1024 * 1024;
export const MAX_IMAGE_PIXELS = 100_000_000;
export const MAX_EXTRACT_MS = 60_000;
export const MAX_PAGES = 2000;
export const MAX_TEXT_CHARS = 5_000_000;

const tooLarge = (size: number, max: number, what: string) =>
  new ToolError('payload_too_large', `${what} is ${size} bytes; the limit is ${max}`, {
    details: { bytes: size, max_bytes: max },
    hint: 'Split the document into smaller files, or send only the relevant pages.',
  });

const unsupported = (message: string, details: Record<string, unknown> = {}) =>
  new ToolError('unsupported_media_type', message, {
    details: { supported: [PDF, DOCX, 'text/plain', 'text/markdown', ...IMAGES], ...details },
    hint: 'Send a PDF, a DOCX (not the old .doc), UTF-8 plain text or Markdown, or a scan as PNG, JPEG or TIFF, with a content type that matches the bytes (or none).',
  });

/** The bytes base64 text decodes to, from its length alone (whitespace not counted). */
function base64Size(clean: string): number {
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
}

/**
 * payload_too_large when base64 text would decode past `maxBytes`, judged by its length without decoding
 * or copying it (an upper bound while it contains whitespace, which is rare).
 */
export function checkBase64Size(b64: string, maxBytes = MAX_ANY_BYTES): void {
  const size = base64Size(b64.trimEnd());
  if (size > maxBytes && base64Size(b64.replace(/\s+/g, '')) > maxBytes) {
    throw tooLarge(base64Size(b64.replace(/\s+/g, '')), maxBytes, 'The decoded file');
  }
}

/** payload_too_large for a text longer than the text cap, judged by its length without encoding it. */
export function checkTextSize(text: string): void {
  const max = MAX_BYTES['text/plain'];
  if (text.length > max) throw tooLarge(text.length, max, 'The text');
}

/** Decodes base64 (standard or URL-safe) after checking the size it would decode to. */
export function decodeBase64Capped(b64: string, maxBytes = MAX_ANY_BYTES): Uint8Array {
  const clean = b64.replace(/\s+/g, '');
  const size = base64Size(clean);
  if (size > maxBytes) throw tooLarge(size, maxBytes, 'The decoded file');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw new ToolError('invalid_args', 'content_base64 is not valid base64', {
      details: { issues: [{ path: 'content_base64', message: 'not base64' }] },
    });
  }
  const bin = atob(clean.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** UTF-8 bytes of a text, refused past the text cap before encoding a larger buffer than needed. */
export function textBytesCapped(text: string): Uint8Array {
  const max = MAX_BYTES['text/plain'];
  // Every UTF-16 code unit is at least one UTF-8 byte: a text longer than the cap is refused unencoded.
  checkTextSize(text);
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > max) throw tooLarge(bytes.length, max, 'The text');
  return bytes;
}

const startsWith = (bytes: Uint8Array, sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function containsAscii(bytes: Uint8Array, needle: string, from = 0): boolean {
  const n = ascii(needle);
  outer: for (let i = from; i <= bytes.length - n.length; i++) {
    for (let j = 0; j < n.length; j++) if (bytes[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}

const IMAGES = ['image/png', 'image/jpeg', 'image/tiff'] as const;
type ImageType = (typeof IMAGES)[number];

/** What the bytes are, from their magic numbers; null when none of ours. */
export function sniffMediaType(
  bytes: Uint8Array,
): 'application/pdf' | typeof DOCX | ImageType | 'text' | 'ole' | null {
  // PDF readers accept the header anywhere in the first 1024 bytes.
  const head = bytes.subarray(0, 1024);
  if (containsAscii(head, '%PDF-')) return PDF;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return 'image/tiff';
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return containsAscii(bytes, 'word/document.xml') ? DOCX : null;
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) return 'ole';
  if (bytes.includes(0)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'text';
  } catch {
    return null;
  }
}

const ALIASES: Record<string, DocumentMediaType | 'sniff'> = {
  'application/pdf': PDF,
  'application/x-pdf': PDF,
  [DOCX]: DOCX,
  'text/plain': 'text/plain',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'application/octet-stream': 'sniff',
  'image/png': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/tiff': 'image/tiff',
  'image/tif': 'image/tiff',
};

/**
 * A declared content type without its parameters (`; charset=utf-8`), and what it asks for: one of our
 * types, 'sniff' (none given, or a generic one), or undefined when it is not one we take.
 */
export function declaredMediaType(declared?: string | null): {
  given: string | undefined;
  wanted: DocumentMediaType | 'sniff' | undefined;
} {
  const given = declared?.split(';')[0]?.trim().toLowerCase() || undefined;
  return { given, wanted: given === undefined ? 'sniff' : ALIASES[given] };
}

/**
 * Checks the bytes against their caps and their declared content type (parameters such as
 * `; charset=utf-8` ignored). The magic bytes decide: a declared type that disagrees with them, or bytes
 * that are none of ours, are unsupported_media_type. Text without a declared type is text/plain.
 */
export function resolveMediaType(bytes: Uint8Array, declared?: string | null): DocumentMediaType {
  if (bytes.length > MAX_ANY_BYTES) throw tooLarge(bytes.length, MAX_ANY_BYTES, 'The file');
  const { given, wanted } = declaredMediaType(declared);
  if (wanted === undefined) throw unsupported(`Content type ${given} is not supported`, { declared: given });
  const sniffed = sniffMediaType(bytes);
  // An OLE compound file: the old binary Word .doc, or an Office file saved with a password.
  if (sniffed === 'ole') {
    throw unsupported(
      'This is an old binary Word file (.doc) or a password-protected Office file, which cannot be read: open it in Word or LibreOffice and save it as DOCX (or PDF), without a password, then upload that',
      { detected: 'application/msword', ...(given === undefined ? {} : { declared: given }) },
    );
  }
  if (sniffed === null) {
    throw unsupported('The bytes are not a PDF, a DOCX, UTF-8 text or a PNG, JPEG or TIFF image', {
      ...(given === undefined ? {} : { declared: given }),
    });
  }
  let type: DocumentMediaType;
  if (sniffed === 'text') {
    if (wanted !== 'sniff' && wanted !== 'text/plain' && wanted !== 'text/markdown')
      throw unsupported(`Declared ${given} but the bytes are text`, {
        declared: given,
        detected: 'text/plain',
      });
    type = wanted === 'text/markdown' ? 'text/markdown' : 'text/plain';
  } else {
    if (wanted !== 'sniff' && wanted !== sniffed)
      throw unsupported(`Declared ${given} but the bytes are ${sniffed}`, {
        declared: given,
        detected: sniffed,
      });
    type = sniffed;
  }
  if (bytes.length > MAX_BYTES[type]) throw tooLarge(bytes.length, MAX_BYTES[type], `The ${type} file`);
  if (type === 'image/png' || type === 'image/jpeg') checkImageHeader(bytes, type);
  return type;
}

/**
 * A PNG or JPEG whose header gives no size is refused at upload, and one past the pixel cap is too large
 * (judged from the header alone: the pixels are decoded only when the page is read). A TIFF's pages are
 * checked when it is read (each page has its own header).
 */
function checkImageHeader(bytes: Uint8Array, type: 'image/png' | 'image/jpeg'): void {
  const size = imageSize(bytes, type);
  if (size === null || !(size.width > 0 && size.height > 0)) {
    throw unsupported(`The ${type === 'image/png' ? 'PNG' : 'JPEG'} image is damaged (no image size in it)`, {
      detected: type,
    });
  }
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new ToolError(
      'payload_too_large',
      `The image is ${size.width} × ${size.height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
      {
        details: { width: size.width, height: size.height, max_pixels: MAX_IMAGE_PIXELS },
        hint: 'Scan at 300 dpi (an A4 page is about 9 megapixels), or send the pages as a PDF.',
      },
    );
  }
}
