import { PNG } from 'pngjs';
import { ExtractionError } from '../errors.ts';
import { MAX_IMAGE_PIXELS } from '../media.ts';

/** An 8-bit grayscale image: what OCR reads (colour adds nothing to text and triples the bytes). */
export interface Raster {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** ExtractionError('too_large') for an image past the pixel cap, before its pixels are decoded. */
export function checkPixels(width: number, height: number, what: string): void {
  if (!(width > 0 && height > 0)) throw new ExtractionError('broken', `${what} has no pixels`);
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ExtractionError(
      'too_large',
      `${what} is ${width} × ${height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
    );
  }
}

/** Luma of interleaved pixels with `channels` per pixel (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA; alpha over white). */
export function grayOf(data: Uint8Array, width: number, height: number, channels: number): Raster {
  const n = width * height;
  const gray = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * channels;
    let y: number;
    if (channels <= 2) y = data[o] ?? 255;
    else y = (299 * (data[o] ?? 255) + 587 * (data[o + 1] ?? 255) + 114 * (data[o + 2] ?? 255)) / 1000;
    const alpha = channels === 2 ? data[o + 1] : channels === 4 ? data[o + 3] : 255;
    const a = (alpha ?? 255) / 255;
    gray[i] = Math.round(y * a + 255 * (1 - a));
  }
  return { width, height, gray };
}

/** One-bit rows (1 = white, as pdf.js's GRAYSCALE_1BPP gives them), each padded to a whole byte. */
export function grayOf1Bit(data: Uint8Array, width: number, height: number): Raster {
  const gray = new Uint8Array(width * height);
  const stride = (width + 7) >> 3;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = ((data[y * stride + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1;
      gray[y * width + x] = bit === 1 ? 255 : 0;
    }
  }
  return { width, height, gray };
}

/** A raster as grayscale PNG bytes (what tesseract.js reads). */
export function encodePng(r: Raster): Uint8Array {
  const png = new PNG({
    width: r.width,
    height: r.height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
  });
  png.data = Buffer.from(r.gray.buffer, r.gray.byteOffset, r.gray.byteLength);
  return new Uint8Array(PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false }));
}
