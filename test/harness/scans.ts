// Scans made from our rasterised fixture pages (test/fixtures/scans/*.png, scripts/fixtures/make_scans.ts):
// image-only PDFs, JPEG, multi-page TIFF, noise, and a scanner's defects (noise, skew) for the OCR measure.
import jpeg from 'jpeg-js';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';

export interface Gray {
  width: number;
  height: number;
  gray: Uint8Array;
}

export function grayOfPng(bytes: Uint8Array): Gray {
  const png = PNG.sync.read(Buffer.from(bytes));
  const gray = new Uint8Array(png.width * png.height);
  for (let i = 0; i < gray.length; i++) gray[i] = png.data[i * 4] ?? 255;
  return { width: png.width, height: png.height, gray };
}

export function pngOf(img: Gray): Uint8Array {
  const png = new PNG({ width: img.width, height: img.height });
  for (let i = 0; i < img.gray.length; i++) {
    const v = img.gray[i] ?? 255;
    png.data[i * 4] = v;
    png.data[i * 4 + 1] = v;
    png.data[i * 4 + 2] = v;
    png.data[i * 4 + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(png, { colorType: 0 }));
}

export function jpegOf(img: Gray, quality = 85): Uint8Array {
  const data = Buffer.alloc(img.width * img.height * 4);
  for (let i = 0; i < img.gray.length; i++) {
    const v = img.gray[i] ?? 255;
    data[i * 4] = v;
    data[i * 4 + 1] = v;
    data[i * 4 + 2] = v;
    data[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ width: img.width, height: img.height, data }, quality).data);
}

/** An image-only PDF: each PNG on its own page at `dpi` (the way a scanner writes a PDF). */
export async function imagePdf(pngs: readonly Uint8Array[], dpi = 300): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const png of pngs) {
    const img = await doc.embedPng(png);
    const page = doc.addPage([(img.width * 72) / dpi, (img.height * 72) / dpi]);
    page.drawImage(img, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return doc.save();
}

/** Deterministic noise in [0, 1). */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A page of gray noise: nothing for OCR to read. */
export function noisePng(width = 500, height = 300, seed = 7): Uint8Array {
  const r = random(seed);
  return pngOf({
    width,
    height,
    gray: Uint8Array.from({ length: width * height }, () => Math.floor(r() * 256)),
  });
}

/** An uncompressed 8-bit grayscale TIFF, one page per image, little-endian (an office scanner's file). */
export function grayTiff(images: readonly Gray[]): Uint8Array {
  const ENTRIES = 9;
  const ifdSize = 2 + ENTRIES * 12 + 4;
  const size = 8 + images.reduce((n, img) => n + img.gray.length + (img.gray.length % 2) + ifdSize, 0);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  out.set([0x49, 0x49]);
  v.setUint16(2, 42, true);
  let at = 8;
  let linkAt = 4;
  for (const img of images) {
    const dataAt = at;
    out.set(img.gray, dataAt);
    at += img.gray.length + (img.gray.length % 2);
    v.setUint32(linkAt, at, true);
    v.setUint16(at, ENTRIES, true);
    const entries: [number, number, number][] = [
      [256, 4, img.width],
      [257, 4, img.height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, dataAt],
      [277, 3, 1],
      [278, 4, img.height],
      [279, 4, img.gray.length],
    ];
    entries.forEach(([tag, type, value], i) => {
      const e = at + 2 + i * 12;
      v.setUint16(e, tag, true);
      v.setUint16(e + 2, type, true);
      v.setUint32(e + 4, 1, true);
      if (type === 3) v.setUint16(e + 8, value, true);
      else v.setUint32(e + 8, value, true);
    });
    linkAt = at + 2 + ENTRIES * 12;
    v.setUint32(linkAt, 0, true);
    at += ifdSize;
  }
  return out;
}

/**
 * A scanner's defects on a page: scaled to `scale` (a lower resolution), rotated by `degrees` (skew), with
 * Gaussian-like noise of `noise` gray levels (bilinear sampling; white outside the page).
 */
export function degrade(
  img: Gray,
  options: { scale: number; degrees: number; noise: number; seed?: number },
): Gray {
  const width = Math.round(img.width * options.scale);
  const height = Math.round(img.height * options.scale);
  const a = (options.degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const r = random(options.seed ?? 1);
  const gray = new Uint8Array(width * height);
  const cx = width / 2;
  const cy = height / 2;
  const at = (x: number, y: number) =>
    x < 0 || y < 0 || x >= img.width || y >= img.height ? 255 : (img.gray[y * img.width + x] ?? 255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const sx = (cos * dx + sin * dy + cx) / options.scale;
      const sy = (-sin * dx + cos * dy + cy) / options.scale;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const value =
        at(x0, y0) * (1 - fx) * (1 - fy) +
        at(x0 + 1, y0) * fx * (1 - fy) +
        at(x0, y0 + 1) * (1 - fx) * fy +
        at(x0 + 1, y0 + 1) * fx * fy;
      const n = (r() + r() + r() - 1.5) * options.noise;
      gray[y * width + x] = Math.max(0, Math.min(255, Math.round(value + n)));
    }
  }
  return { width, height, gray };
}
