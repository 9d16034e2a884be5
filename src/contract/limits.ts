// Lists (docs/contract.md "Lists"): every list is paged by the kernel. A tool declares `pages: { key }`; the
// kernel adds `limit` and `cursor`, clamps the limit, binds cursors to the tool and to its other arguments,
// and builds `next_cursor`. No tool handles a cursor or names itself.

import * as z from 'zod';
import { type AnyColumn, type SQL, sql } from '../db/orm.ts';
import { invalidArg } from './errors.ts';
import { sha256Hex, stableStringify } from './hash.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 200;

/** Clamp, never refuse; the response says the limit it applied. */
export const clampLimit = (limit: number | undefined): number =>
  limit === undefined || Number.isNaN(limit)
    ? DEFAULT_LIMIT
    : Math.min(MAX_LIMIT, Math.max(1, Math.trunc(limit)));

/** The parameters the kernel adds to every paging tool. */
export const pageParams = {
  limit: z.int().optional().describe(`Page size, default ${DEFAULT_LIMIT}; clamped to 1..${MAX_LIMIT}`),
  cursor: z.string().max(512).optional().describe('The last page’s next_cursor'),
};

/** A position in a list: the sort key of the last item served. */
export type CursorKey = readonly (string | number)[];

export interface PageSpec<K extends CursorKey> {
  /** The shape of the key; a cursor whose key does not parse is invalid_args, never a database error. */
  key: z.ZodType<K>;
}

export interface Page<T> {
  items: T[];
  /** The limit applied (after clamping). */
  limit: number;
  /** Pass it back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

export interface PageRequest<K extends CursorKey> {
  /** The clamped limit. */
  limit: number;
  /** The key of the last item of the previous page; undefined for the first page. */
  after: K | undefined;
  /** A page from rows fetched with `limit + 1`: the extra row only says whether there is more. */
  from<R, T>(rows: readonly R[], keyOf: (row: R) => K, map: (row: R) => T): Page<T>;
  /** A page from items already cut to the limit, and the key to continue after (null at the end). */
  of<T>(items: T[], next: K | null): Page<T>;
}

/** The output of a paging tool: `items` of this shape (bounded by the kernel), `limit`, `next_cursor`. */
export function pagedOutput<I extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(
  item: I,
  extra?: E,
) {
  return z.object({
    items: z.array(item).max(MAX_LIMIT),
    limit: z.int(),
    next_cursor: z.string().nullable(),
    ...(extra ?? ({} as E)),
  });
}

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

/** The hash of a list call's arguments other than limit and cursor: a cursor continues only its own list. */
const queryHash = (args: Record<string, unknown>) => sha256Hex(stableStringify(args)).slice(0, 16);

/** A cursor as the kernel issues it: the tool, the hash of the other arguments, and the key to continue after. */
export const encodeCursor = (tool: string, args: Record<string, unknown>, key: CursorKey): string =>
  toBase64Url(JSON.stringify({ t: tool, q: queryHash(args), k: key }));

const cursorHint =
  'Pass next_cursor from the previous page unchanged, with the same other arguments, or omit cursor to start over.';

/**
 * Opens the page a call asks for. `args` are the decoded arguments; `limit` and `cursor` are taken out
 * (the tool never sees them) and the rest are hashed, so a cursor continues only the list it came from.
 */
export function openPage<K extends CursorKey>(
  tool: string,
  spec: PageSpec<K>,
  args: Record<string, unknown>,
): { page: PageRequest<K>; rest: Record<string, unknown> } {
  const { limit: rawLimit, cursor, ...rest } = args;
  const limit = clampLimit(typeof rawLimit === 'number' ? rawLimit : undefined);
  const query = queryHash(rest);
  let after: K | undefined;
  if (typeof cursor === 'string' && cursor !== '') {
    let parsed: { t?: unknown; q?: unknown; k?: unknown } | undefined;
    try {
      parsed = JSON.parse(fromBase64Url(cursor)) as typeof parsed;
    } catch {
      // refused below
    }
    const key = parsed?.t === tool ? spec.key.safeParse(parsed.k) : undefined;
    if (key === undefined || !key.success)
      throw invalidArg('cursor', `not a cursor that ${tool} issued`, cursorHint);
    if (parsed?.q !== query) throw invalidArg('cursor', 'issued for other arguments', cursorHint);
    after = key.data;
  }
  const of = <T>(items: T[], next: K | null): Page<T> => ({
    items,
    limit,
    next_cursor: next === null ? null : encodeCursor(tool, rest, next),
  });
  return {
    rest,
    page: {
      limit,
      after,
      of,
      from(rows, keyOf, map) {
        const more = rows.length > limit;
        const pageRows = more ? rows.slice(0, limit) : rows;
        const last = pageRows.at(-1);
        return of(pageRows.map(map), more && last !== undefined ? keyOf(last) : null);
      },
    },
  };
}

/** created_at as Postgres stores it, to the microsecond, in UTC. */
const timestampKey = z.string().refine((s) => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(s)) return false;
  // A calendar-valid instant (no hour 25, no Feb 30): the Date round trip of the millisecond part matches.
  const d = new Date(`${s.slice(0, 23)}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 23) === s.slice(0, 23);
});

/**
 * Keyset paging by (created_at, id), the stable order of most lists. The key carries created_at to the
 * microsecond as Postgres stores it: a JS Date (milliseconds) would land before the last row of the page
 * and repeat it on the next one.
 */
export function createdAtKeyset(createdAtColumn: AnyColumn, idColumn: AnyColumn) {
  return {
    /** The tool's `pages`. */
    pages: { key: z.tuple([timestampKey, z.uuid()]) } satisfies PageSpec<readonly [string, string]>,
    /** Select it as the row's cursor position. */
    cursorAt: sql<string>`to_char(${createdAtColumn} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    /** The rows after a key; a row comparison, so a (created_at, id) index serves it. */
    after: ([at, id]: readonly [string, string]): SQL =>
      sql`(${createdAtColumn}, ${idColumn}) > (${at}::timestamptz, ${id}::uuid)`,
  };
}

/** Offset paging for ranked results, up to `max` deep: the key is the offset of the next page. */
export const offsetPages = (max: number) => ({ key: z.tuple([z.int().min(1).max(max)]) });
