import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ToolError } from './errors.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 200;

/** C6: clamp, never refuse; the response says the limit it applied. */
export const clampLimit = (limit: number | undefined): number =>
  limit === undefined || Number.isNaN(limit)
    ? DEFAULT_LIMIT
    : Math.min(MAX_LIMIT, Math.max(1, Math.trunc(limit)));

/** The `limit` and `cursor` parameters every list/search tool declares (spread into its input). */
export const pageInput = {
  limit: z
    .number()
    .int()
    .optional()
    .describe(`How many items to return: default ${DEFAULT_LIMIT}, clamped to 1..${MAX_LIMIT}`),
  cursor: z
    .string()
    .max(512)
    .optional()
    .describe('Opaque cursor from the previous page’s next_cursor; omit for the first page'),
};

type CursorKey = (string | number)[];

const toBase64Url = (text: string): string => {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): string => {
  const bin = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
};

/** Cursors name the tool they came from, so one tool's cursor is never misread by another. */
export function encodeCursor(tool: string, key: CursorKey): string {
  return toBase64Url(JSON.stringify({ t: tool, k: key }));
}

/** The error for a cursor the tool did not issue (garbled, another tool's, or with a key of the wrong shape). */
function invalidCursor(tool: string): ToolError {
  return new ToolError('invalid_args', `cursor is not one that ${tool} issued`, {
    details: { issues: [{ path: 'cursor', message: 'unrecognised cursor' }] },
    hint: 'Pass next_cursor from the previous page unchanged, or omit cursor to start from the first page.',
  });
}

const isKeyPart = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Reads a cursor back. `isKey` checks the key's shape, so a forged cursor is refused here as
 * invalid_args instead of reaching the query as garbage (and failing there as an internal error).
 */
export function decodeCursor(
  tool: string,
  cursor: string | undefined,
  isKey: (key: CursorKey) => boolean = () => true,
): CursorKey | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let parsed: { t?: unknown; k?: unknown } | undefined;
  try {
    parsed = JSON.parse(fromBase64Url(cursor)) as { t?: unknown; k?: unknown };
  } catch {
    // refused below
  }
  const key = parsed?.k;
  if (parsed?.t === tool && Array.isArray(key) && key.every(isKeyPart) && isKey(key)) return key;
  throw invalidCursor(tool);
}

export interface Page<T> {
  items: T[];
  limit: number;
  next_cursor: string | null;
}

/** Builds a page from rows fetched with `limit + 1`: the extra row only says whether there is more. */
export function toPage<R, T>(
  tool: string,
  rows: R[],
  limit: number,
  keyOf: (row: R) => CursorKey,
  map: (row: R) => T,
): Page<T> {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    items: pageRows.map(map),
    limit,
    next_cursor: more && last !== undefined ? encodeCursor(tool, keyOf(last)) : null,
  };
}

const isTimestamp = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(s)) return false;
  // A calendar-valid instant (no hour 25, no Feb 30): the Date round trip of the millisecond part matches.
  const d = new Date(`${s.slice(0, 23)}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 23) === s.slice(0, 23);
};

/**
 * Keyset paging by (created_at, id), the stable order of the list tools. The cursor carries created_at to
 * the microsecond as Postgres stores it: a JS Date (milliseconds) would land before the last row of the
 * page and repeat it on the next one.
 */
export function createdAtKeyset(createdAtColumn: AnyColumn, idColumn: AnyColumn) {
  return {
    /** Select it as the row's cursor position. */
    cursorAt: sql<string>`to_char(${createdAtColumn} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    /** Pass to decodeCursor: a forged key is invalid_args, never a database error. */
    isKey: (key: (string | number)[]) =>
      key.length === 2 &&
      typeof key[0] === 'string' &&
      isTimestamp(key[0]) &&
      typeof key[1] === 'string' &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key[1]),
    /** The rows after a decoded key; a row comparison, so a (created_at, id) index serves it. */
    after: ([at, id]: (string | number)[]): SQL =>
      sql`(${createdAtColumn}, ${idColumn}) > (${at}::timestamptz, ${id}::uuid)`,
  };
}
