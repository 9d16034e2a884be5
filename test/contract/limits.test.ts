// Lists (docs/contract.md "Lists"): limits are clamped (never refused); cursors are opaque, URL-safe, bound
// to their tool and to the list's other arguments, checked against the tool's key shape, and round-trip.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { isToolError, type ToolError } from '../../src/contract/errors.ts';
import {
  type CursorKey,
  clampLimit,
  DEFAULT_LIMIT,
  encodeCursor,
  MAX_LIMIT,
  openPage,
  type PageSpec,
  pageParams,
} from '../../src/contract/limits.ts';

function refusal(f: () => unknown): ToolError {
  try {
    f();
  } catch (e) {
    if (isToolError(e)) return e;
    throw e;
  }
  throw new Error('expected a ToolError');
}

describe('clampLimit', () => {
  it('defaults, clamps to 1..200 and truncates, never refusing', () => {
    expect(DEFAULT_LIMIT).toBe(20);
    expect(MAX_LIMIT).toBe(200);
    const table: [number | undefined, number][] = [
      [undefined, 20],
      [0, 1],
      [-5, 1],
      [1, 1],
      [20, 20],
      [200, 200],
      [201, 200],
      [500, 200],
      [2.9, 2],
      [Number.POSITIVE_INFINITY, 200],
      [Number.NEGATIVE_INFINITY, 1],
      [Number.NaN, 20],
    ];
    for (const [given, applied] of table) expect(clampLimit(given), String(given)).toBe(applied);
  });

  it('always lands in 1..200 as an integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer()), (n) => {
        const applied = clampLimit(n);
        expect(Number.isInteger(applied)).toBe(true);
        expect(applied).toBeGreaterThanOrEqual(1);
        expect(applied).toBeLessThanOrEqual(200);
      }),
    );
  });

  it('declares limit as an optional integer and cursor as a bounded optional string, both described', () => {
    expect(pageParams.limit.safeParse(undefined).success).toBe(true);
    expect(pageParams.limit.safeParse(1.5).success).toBe(false);
    expect(pageParams.limit.safeParse(500).success).toBe(true);
    expect(pageParams.cursor.safeParse('x'.repeat(512)).success).toBe(true);
    expect(pageParams.cursor.safeParse('x'.repeat(513)).success).toBe(false);
    expect(pageParams.limit.description).toMatch(/clamped to 1\.\.200/);
    expect(pageParams.cursor.description).toMatch(/next_cursor/);
  });
});

describe('cursors', () => {
  const keyPart = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0)),
  );
  const anyKey: PageSpec<CursorKey> = { key: z.array(z.union([z.string(), z.number()])) };
  const args = { status: 'open', text: 'ערר' };
  const open = (
    cursor: string | undefined,
    spec: PageSpec<CursorKey> = anyKey,
    other: Record<string, unknown> = args,
  ) => openPage('thing_list', spec, { ...other, limit: 5, ...(cursor === undefined ? {} : { cursor }) });

  it('round-trip any key of strings and numbers, as URL-safe text', () => {
    fc.assert(
      fc.property(fc.array(keyPart, { maxLength: 4 }), (key) => {
        const cursor = encodeCursor('thing_list', args, key);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(open(cursor).page.after).toEqual(key);
      }),
    );
  });

  it('take limit and cursor out of the arguments the tool sees, and clamp the limit', () => {
    const { page, rest } = openPage('thing_list', anyKey, { ...args, limit: 100_000, cursor: '' });
    expect(rest).toEqual(args);
    expect(page.limit).toBe(200);
    expect(page.after).toBeUndefined();
    expect(open(undefined).page.after).toBeUndefined();
  });

  it('refuse another tool’s cursor and anything they did not issue, as invalid_args naming cursor', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    const bad = [
      encodeCursor('other_list', args, ['a']),
      'not a cursor!',
      '%%%',
      b64('not json'),
      b64('null'),
      b64('[1]'),
      b64('{"t":"thing_list"}'),
      b64('{"t":"thing_list","k":"a"}'),
      b64('{"t":"thing_list","k":[null]}'),
      b64('{"t":"thing_list","k":[{"a":1}]}'),
      b64('{"t":"thing_list","k":[[1]]}'),
      b64('{"t":"thing_list","k":[true]}'),
    ];
    for (const cursor of bad) {
      const e = refusal(() => open(cursor));
      expect(e.code, cursor).toBe('invalid_args');
      expect(e.details, cursor).toEqual({
        issues: [{ path: 'cursor', message: 'not a cursor that thing_list issued' }],
      });
      expect(e.hint).toMatch(/next_cursor/);
    }
  });

  it('refuse a cursor issued for other arguments of the same tool', () => {
    const cursor = encodeCursor('thing_list', args, ['a']);
    for (const other of [{ ...args, status: 'decided' }, { status: 'open' }, {}]) {
      const e = refusal(() => open(cursor, anyKey, other));
      expect(e.code).toBe('invalid_args');
      expect(e.details).toEqual({ issues: [{ path: 'cursor', message: 'issued for other arguments' }] });
    }
  });

  it('refuse a key of the wrong shape for the tool', () => {
    const spec: PageSpec<CursorKey> = { key: z.tuple([z.string(), z.int()]) };
    expect(open(encodeCursor('thing_list', args, ['a', 1]), spec).page.after).toEqual(['a', 1]);
    expect(refusal(() => open(encodeCursor('thing_list', args, ['a', 'b']), spec)).code).toBe('invalid_args');
  });

  it('never throw anything but invalid_args for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (cursor) => {
        try {
          open(cursor);
        } catch (e) {
          expect(isToolError(e) && e.code === 'invalid_args').toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('a page', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, n: i }));
  const spec: PageSpec<readonly [number, string]> = { key: z.tuple([z.int(), z.string()]) };
  const page = (fetched: typeof rows, limit: number) =>
    openPage('thing_list', spec, { limit }).page.from(
      fetched,
      (r) => [r.n, r.id] as const,
      (r) => r.id,
    );

  it('uses the extra fetched row only to say there is more, and keys the cursor on the last row shown', () => {
    const p = page(rows.slice(0, 3), 2);
    expect(p.items).toEqual(['r0', 'r1']);
    expect(p.limit).toBe(2);
    expect(p.next_cursor).not.toBeNull();
    const next = openPage('thing_list', spec, { limit: 9, cursor: p.next_cursor });
    expect(next.page.after).toEqual([1, 'r1']);
  });

  it('ends with next_cursor null when nothing more was fetched', () => {
    expect(page(rows.slice(0, 2), 2)).toEqual({ items: ['r0', 'r1'], limit: 2, next_cursor: null });
    expect(page([], 20)).toEqual({ items: [], limit: 20, next_cursor: null });
  });
});
