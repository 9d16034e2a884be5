import { ExtractionError } from '../errors.ts';
import { imageSize } from './image_size.ts';
import { checkPixels, encodePng, grayOf } from './raster.ts';

/** The image types read as documents, each page by OCR. */
export const PNG_TYPE = 'image/png';
export const JPEG_TYPE = 'image/jpeg';
export const TIFF_TYPE = 'image/tiff';
export type ImageMediaType = typeof PNG_TYPE | typeof JPEG_TYPE | typeof TIFF_TYPE;
export const imageMediaTypes: readonly ImageMediaType[] = [PNG_TYPE, JPEG_TYPE, TIFF_TYPE];

export const isImageMediaType = (t: string): t is ImageMediaType =>
  (imageMediaTypes as readonly string[]).includes(t);

type Utif = typeof import('utif2');
let utif: Promise<Utif> | undefined;
const loadUtif = () => {
  utif ??= import('utif2').then((m) => ((m as { default?: Utif }).default ?? m) as Utif);
  return utif;
};

/** A TIFF's pages (image file directories with pixels), their sizes checked against the cap. */
async function tiffPages(bytes: Uint8Array) {
  const UTIF = await loadUtif();
  let ifds: ReturnType<Utif['decode']>;
  try {
    ifds = UTIF.decode(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
  } catch (e) {
    throw new ExtractionError(
      'broken',
      `The TIFF cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      {
        cause: e,
      },
    );
  }
  // Thumbnails and masks (NewSubfileType bit 0 or 2) are not pages.
  const pages = ifds.filter((ifd) => (Number((ifd.t254 as number[] | undefined)?.[0] ?? 0) & 0b101) === 0);
  if (pages.length === 0) throw new ExtractionError('broken', 'The TIFF has no page images');
  pages.forEach((ifd, i) => {
    checkPixels(
      Number((ifd.t256 as number[])?.[0]),
      Number((ifd.t257 as number[])?.[0]),
      `Page ${i + 1} of the TIFF`,
    );
  });
  return { UTIF, pages };
}

/** How many pages an image document has: one for PNG and JPEG, one per page image for TIFF. */
export async function imagePageCount(bytes: Uint8Array, type: ImageMediaType): Promise<number> {
  if (type === TIFF_TYPE) return (await tiffPages(bytes)).pages.length;
  const size = imageSize(bytes, type);
  if (size === null)
    throw new ExtractionError('broken', `The ${type === PNG_TYPE ? 'PNG' : 'JPEG'} cannot be read`);
  checkPixels(size.width, size.height, 'The image');
  return 1;
}

/** Page `page` (1-based) of an image document as PNG or JPEG bytes for OCR (a TIFF page is encoded as PNG). */
export async function imagePageForOcr(
  bytes: Uint8Array,
  type: ImageMediaType,
  page: number,
): Promise<Uint8Array> {
  if (type !== TIFF_TYPE) {
    if (page !== 1) throw new ExtractionError('broken', `The image has one page, not ${page}`);
    await imagePageCount(bytes, type);
    return bytes;
  }
  const { UTIF, pages } = await tiffPages(bytes);
  const ifd = pages[page - 1];
  if (ifd === undefined)
    throw new ExtractionError('broken', `The TIFF has ${pages.length} page(s), not ${page}`);
  try {
    UTIF.decodeImage(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      ifd,
    );
    const rgba = UTIF.toRGBA8(ifd);
    return encodePng(grayOf(rgba, ifd.width, ifd.height, 4));
  } catch (e) {
    throw new ExtractionError(
      'broken',
      `Page ${page} of the TIFF cannot be decoded: ${e instanceof Error ? e.message : String(e)}`,
      {
        cause: e,
      },
    );
  }
}
