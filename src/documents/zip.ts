// The one ZIP reader (DOCX uploads and the chair's final version), on fflate's streaming Unzip: the archive
// is fed in small slices and every inflated byte is counted as it comes out, so a part whose headers claim
// 4 KB but inflate to a gigabyte stops at the cap, never allocating past it. The declared sizes are not
// trusted for anything. Pure JavaScript: runs in the Worker as on Node.
import { Unzip, UnzipInflate } from 'fflate';
import { turns } from './turns.ts';

export type ZipFailure = 'broken' | 'too_large';

export class ZipError extends Error {
  readonly failure: ZipFailure;
  constructor(failure: ZipFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ZipError';
    this.failure = failure;
  }
}

export interface ZipLimits {
  /** The inflated bytes of all the parts read, together. */
  maxInflatedBytes: number;
  /** Entries in the archive (read or not). */
  maxEntries?: number;
}

// Deflate expands at most ~1032:1: a 4 KiB slice yields at most ~4 MiB before its bytes are counted.
const SLICE = 4096;
const DEFAULT_MAX_ENTRIES = 5_000;

/**
 * The bytes of the wanted entries. Throws ZipError: 'too_large' once the inflated total passes the cap (or
 * the archive has too many entries), 'broken' for bytes that are not a complete ZIP archive, a damaged
 * entry, or one compressed with anything but deflate. Lets other work run while it inflates (turns.ts).
 */
export async function readZipEntries(
  zip: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ZipLimits,
): Promise<Map<string, Uint8Array>> {
  const reading = unzipper(zip, wanted, limits);
  const { pause } = turns();
  while (reading.step()) await pause();
  return reading.result();
}

/** Feeds the archive to fflate one slice per step; result() checks what came out. */
function unzipper(zip: Uint8Array, wanted: (name: string) => boolean, limits: ZipLimits) {
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const parts = new Map<string, { chunks: Uint8Array[]; done: boolean }>();
  let total = 0;
  let entries = 0;
  let failure: ZipError | null = null;
  const unzip = new Unzip((file) => {
    if (failure !== null) return;
    if (++entries > maxEntries) {
      failure = new ZipError('too_large', `The archive has more than ${maxEntries} entries`);
      return;
    }
    if (!wanted(file.name) || parts.has(file.name)) return;
    if (file.compression !== 0 && file.compression !== 8) {
      failure = new ZipError('broken', `Entry ${file.name} uses compression method ${file.compression}`);
      return;
    }
    const part = { chunks: [] as Uint8Array[], done: false };
    parts.set(file.name, part);
    file.ondata = (err, data, final) => {
      if (failure !== null) return;
      if (err !== null) {
        failure = new ZipError('broken', `Entry ${file.name} is damaged: ${err.message}`, { cause: err });
        return;
      }
      total += data.length;
      if (total > limits.maxInflatedBytes) {
        failure = new ZipError(
          'too_large',
          `The archive inflates past ${limits.maxInflatedBytes} bytes (at ${file.name}); the limit is ${limits.maxInflatedBytes}`,
        );
        return;
      }
      part.chunks.push(data);
      if (final) part.done = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  let at = 0;
  const step = (): boolean => {
    if (at >= zip.length || failure !== null) return false;
    try {
      unzip.push(zip.subarray(at, at + SLICE), at + SLICE >= zip.length);
    } catch (e) {
      failure ??= new ZipError(
        'broken',
        `Not a readable ZIP archive: ${e instanceof Error ? e.message : e}`,
        {
          cause: e,
        },
      );
    }
    at += SLICE;
    return true;
  };
  return { step, result: () => finish(zip, parts, entries, failure) };
}

function finish(
  zip: Uint8Array,
  parts: Map<string, { chunks: Uint8Array[]; done: boolean }>,
  entries: number,
  failure: ZipError | null,
): Map<string, Uint8Array> {
  if (failure !== null) throw failure;
  if (entries === 0) throw new ZipError('broken', 'Not a ZIP archive (no entries)');
  if (!hasEndRecord(zip))
    throw new ZipError('broken', 'The archive is incomplete (its directory is missing)');
  const out = new Map<string, Uint8Array>();
  for (const [name, part] of parts) {
    if (!part.done) throw new ZipError('broken', `Entry ${name} is truncated`);
    out.set(name, concat(part.chunks));
  }
  return out;
}

/** The end-of-central-directory record, in the last 64 KiB + 22 bytes: a cut-off archive has none. */
function hasEndRecord(zip: Uint8Array): boolean {
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 0x05 && zip[i + 3] === 0x06) return true;
  }
  return false;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The names of a ZIP archive's entries, in order (nothing inflated). */
export function zipEntryNames(zip: Uint8Array): string[] {
  const names: string[] = [];
  const reading = unzipper(
    zip,
    (name) => {
      names.push(name);
      return false;
    },
    { maxInflatedBytes: 0 },
  );
  while (reading.step());
  reading.result();
  return names;
}

export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
