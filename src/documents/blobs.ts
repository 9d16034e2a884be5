// A document's stored bytes, written and read in slices, as base64 text. PGlite (the embedded default) turns a
// bytea value into and out of hex in JavaScript on the server's thread: a 670 KB PDF took 1.3 s to insert and
// 0.6 s to select, and every other call waited that long. Postgres encodes base64 itself, and a slice at a
// time lets other calls run between the statements; the other drivers take the same path.
import { eq, sql } from '../db/orm.ts';
import { documentBlobs } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import { yieldToEventLoop } from './yield.ts';

/** Bytes per statement: small enough that one statement is a short pause, large enough to be few. */
const SLICE = 256 * 1024;

export function toBase64(bytes: Uint8Array): string {
  let bin = '';
  // fromCharCode takes its characters as arguments: a few thousand at a time stays inside the call stack.
  for (let i = 0; i < bytes.length; i += 8192) bin += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(bin);
}

function fromBase64(text: string, into: Uint8Array, at: number): number {
  // Postgres's base64 breaks lines every 76 characters; atob refuses them.
  const bin = atob(text.replace(/\s+/g, ''));
  for (let i = 0; i < bin.length; i++) into[at + i] = bin.charCodeAt(i);
  return bin.length;
}

/** Stores a new document's bytes (run it in the transaction that creates the document row). */
export async function writeDocumentBlob(db: DbOrTx, documentId: string, bytes: Uint8Array): Promise<void> {
  await db.insert(documentBlobs).values({
    documentId,
    bytes: sql`decode(${toBase64(bytes.subarray(0, SLICE))}, 'base64')`,
  });
  for (let at = SLICE; at < bytes.length; at += SLICE) {
    await yieldToEventLoop();
    await db
      .update(documentBlobs)
      .set({
        bytes: sql`${documentBlobs.bytes} || decode(${toBase64(bytes.subarray(at, at + SLICE))}, 'base64')`,
      })
      .where(eq(documentBlobs.documentId, documentId));
  }
}

/** A document's stored bytes, or null when it has none; each slice its own statement (no transaction held). */
export async function readDocumentBlob(db: DbOrTx, documentId: string): Promise<Uint8Array | null> {
  const [row] = await db
    .select({ size: sql<number>`octet_length(${documentBlobs.bytes})`.mapWith(Number) })
    .from(documentBlobs)
    .where(eq(documentBlobs.documentId, documentId));
  if (row === undefined) return null;
  const bytes = new Uint8Array(row.size);
  let filled = 0;
  for (let at = 0; at < row.size; at += SLICE) {
    if (at > 0) await yieldToEventLoop();
    const [slice] = await db
      .select({
        b64: sql<string>`encode(substring(${documentBlobs.bytes} from ${at + 1} for ${SLICE}), 'base64')`,
      })
      .from(documentBlobs)
      .where(eq(documentBlobs.documentId, documentId));
    if (slice === undefined) return null;
    filled += fromBase64(slice.b64, bytes, filled);
  }
  // Replaced while being read (it never is: a document's bytes are written once): read what is there.
  return filled === row.size ? bytes : readDocumentBlob(db, documentId);
}
