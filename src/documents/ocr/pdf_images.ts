import type { getDocumentProxy } from 'unpdf';

type PDFPageProxy = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>;

import { encodePng, grayOf, grayOf1Bit, type Raster } from './raster.ts';

// pdf.js's operator numbers (OPS.paintImageXObject, OPS.paintInlineImageXObject) and image kinds.
const PAINT_IMAGE_XOBJECT = 85;
const PAINT_INLINE_IMAGE_XOBJECT = 86;
const KIND_1BPP = 1;
const KIND_RGB = 2;
const KIND_RGBA = 3;

interface PdfImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/**
 * The page's largest image as PNG bytes for OCR, without a canvas: pdf.js decodes the image XObjects a page
 * paints (its operator list) into pixels. A scanned page is one full-page image; a small logo or stamp
 * beside typed text is smaller than it. Null when the page paints no image.
 */
export async function largestPageImage(page: PDFPageProxy): Promise<Uint8Array | null> {
  const ops = await page.getOperatorList();
  let best: PdfImage | undefined;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    if (fn !== PAINT_IMAGE_XOBJECT && fn !== PAINT_INLINE_IMAGE_XOBJECT) continue;
    const arg = ops.argsArray[i]?.[0];
    // An inline image comes in the arguments; an XObject by name, from the page's (or the document's) objects.
    const image = (typeof arg === 'string' ? await objectOf(page, arg) : arg) as PdfImage | undefined;
    if (image?.data === undefined || !(image.width > 0 && image.height > 0)) continue;
    if (best === undefined || image.width * image.height > best.width * best.height) best = image;
  }
  if (best?.data === undefined) return null;
  return encodePng(rasterOf(best, best.data));
}

function rasterOf(image: PdfImage, data: Uint8Array | Uint8ClampedArray): Raster {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (image.kind === KIND_1BPP) return grayOf1Bit(bytes, image.width, image.height);
  const channels =
    image.kind === KIND_RGBA
      ? 4
      : image.kind === KIND_RGB
        ? 3
        : Math.round(bytes.length / (image.width * image.height));
  return grayOf(bytes, image.width, image.height, channels);
}

function objectOf(page: PDFPageProxy, name: string): Promise<unknown> {
  const objs = name.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => objs.get(name, resolve));
}
