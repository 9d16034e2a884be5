// A small ZIP reader for DOCX files (stored and deflated entries, no ZIP64), on the platform's
// DecompressionStream: reading the chair's final version needs no heavy library, so it runs in the MCP
// Worker as well as on Node.

const u16 = (b: Uint8Array, o: number) => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, o: number) => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0;

export class ZipError extends Error {}

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  offset: number;
}

function entries(zip: Uint8Array): Entry[] {
  // The end-of-central-directory record: within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (u32(zip, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a ZIP file (no central directory)');
  const count = u16(zip, eocd + 10);
  let p = u32(zip, eocd + 16);
  const out: Entry[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (u32(zip, p) !== 0x02014b50) throw new ZipError('broken central directory');
    const nameLen = u16(zip, p + 28);
    const extraLen = u16(zip, p + 30);
    const commentLen = u16(zip, p + 32);
    out.push({
      name: decoder.decode(zip.subarray(p + 46, p + 46 + nameLen)),
      method: u16(zip, p + 10),
      compressedSize: u32(zip, p + 20),
      offset: u32(zip, p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The named entries of a ZIP file as text (UTF-8); entries absent from the file are absent from the map. */
export async function readZipTexts(zip: Uint8Array, names: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const decoder = new TextDecoder();
  for (const e of entries(zip)) {
    if (!names.includes(e.name)) continue;
    if (u32(zip, e.offset) !== 0x04034b50) throw new ZipError(`broken entry ${e.name}`);
    const start = e.offset + 30 + u16(zip, e.offset + 26) + u16(zip, e.offset + 28);
    const raw = zip.subarray(start, start + e.compressedSize);
    if (e.method === 0) out.set(e.name, decoder.decode(raw));
    else if (e.method === 8) out.set(e.name, decoder.decode(await inflate(raw)));
    else throw new ZipError(`entry ${e.name} uses compression method ${e.method}`);
  }
  return out;
}

/** The names of a ZIP file's entries, in order. */
export const zipNames = (zip: Uint8Array): string[] => entries(zip).map((e) => e.name);

export const isZip = (bytes: Uint8Array) => u32(bytes, 0) === 0x04034b50;
