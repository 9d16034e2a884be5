// A look at a PDF's streams before pdf.js opens it. pdf.js inflates a content stream whole into memory, so a
// 1 MB stream of deflated zeros would become a gigabyte in its hands: every Flate stream that text reading
// decodes (content, object and font streams; not images, which text reading never decodes) is inflated here
// first in small slices, counting the bytes and keeping none, and the file is refused past the cap. Images
// are judged by the pixels they declare.
import { Unzlib } from 'fflate';
import { ExtractionError } from './errors.ts';
import { turns } from './turns.ts';

export interface StreamLimits {
  /** Inflated bytes of all the non-image Flate streams together. */
  maxInflatedBytes: number;
  /** Width × height of any one image. */
  maxImagePixels: number;
}

const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // "stream"
const END = [0x65, 0x6e, 0x64, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // "endstream"
const SLICE = 4096;
const latin1 = new TextDecoder('latin1');

function find(bytes: Uint8Array, needle: number[], from: number): number {
  const first = needle[0] ?? 0;
  for (let i = bytes.indexOf(first, from); i >= 0; i = bytes.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** The inflated size of a zlib stream, counted up to `budget` (past it: budget + 1); damaged data stops it. */
async function inflatedSize(
  data: Uint8Array,
  budget: number,
  pause: () => Promise<void> | undefined,
): Promise<number> {
  let size = 0;
  const inflate = new Unzlib((chunk) => {
    size += chunk.length;
  });
  try {
    for (let at = 0; at < data.length && size <= budget; at += SLICE) {
      inflate.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
      await pause();
    }
  } catch {
    // A damaged or encrypted stream: pdf.js will refuse or skip it; what came out so far still counts.
  }
  return size;
}

/** Throws ExtractionError('too_large') for a PDF whose streams inflate past the cap or declare huge images. */
export async function checkPdfStreams(bytes: Uint8Array, limits: StreamLimits): Promise<void> {
  let inflated = 0;
  let at = 0;
  const { pause } = turns();
  for (;;) {
    await pause();
    const s = find(bytes, STREAM, at);
    if (s < 0) return;
    at = s + STREAM.length;
    if (bytes[s - 1] === 0x64) continue; // "endstream"
    let start = at;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    if (start === at) continue; // "stream" not followed by an end of line: not the keyword
    const dict = latin1.decode(bytes.subarray(Math.max(0, s - 2048), s));
    const own = dict.slice(dict.lastIndexOf(' obj') + 1);
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(own);
    let end = length === null ? -1 : start + Number(length[1]);
    if (end < 0 || end > bytes.length || find(bytes.subarray(end, end + 32), END, 0) < 0) {
      end = find(bytes, END, start);
      if (end < 0) end = bytes.length;
    }
    at = end;
    if (/\/Subtype\s*\/Image\b/.test(own)) {
      const w = Number(/\/Width\s+(\d+)/.exec(own)?.[1] ?? 0);
      const h = Number(/\/Height\s+(\d+)/.exec(own)?.[1] ?? 0);
      if (w * h > limits.maxImagePixels) {
        throw new ExtractionError(
          'too_large',
          `The PDF has an image of ${w} × ${h} pixels; the limit is ${limits.maxImagePixels} pixels`,
        );
      }
      continue;
    }
    if (!/\/(FlateDecode|Fl)\b/.test(own)) continue;
    inflated += await inflatedSize(bytes.subarray(start, end), limits.maxInflatedBytes - inflated, pause);
    if (inflated > limits.maxInflatedBytes) {
      throw new ExtractionError(
        'too_large',
        `The PDF's compressed streams inflate past ${limits.maxInflatedBytes} bytes (a decompression bomb?); the limit is ${limits.maxInflatedBytes}`,
      );
    }
  }
}
