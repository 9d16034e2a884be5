// C6: limits are clamped (never refused) and cursors are opaque, URL-safe, tied to their tool, and round-trip.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isToolError, type ToolError } from '../../src/contract/errors.ts';
import {
  clampLimit,
  DEFAULT_LIMIT,
  decodeCursor,
  encodeCursor,
  MAX_LIMIT,
  pageInput,
  toPage,
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
    expect(pageInput.limit.safeParse(undefined).success).toBe(true);
    expect(pageInput.limit.safeParse(1.5).success).toBe(false);
    expect(pageInput.limit.safeParse(500).success).toBe(true);
    expect(pageInput.cursor.safeParse('x'.repeat(512)).success).toBe(true);
    expect(pageInput.cursor.safeParse('x'.repeat(513)).success).toBe(false);
    expect(pageInput.limit.description).toMatch(/clamped to 1\.\.200/);
    expect(pageInput.cursor.description).toMatch(/next_cursor/);
  });
});

describe('cursors', () => {
  const keyPart = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0)),
  );

  it('round-trip any key of strings and numbers, as URL-safe text', () => {
    fc.assert(
      fc.property(fc.array(keyPart, { maxLength: 4 }), (key) => {
        const cursor = encodeCursor('thing_list', key);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(decodeCursor('thing_list', cursor)).toEqual(key);
      }),
    );
    const hebrew = ['ערר 1234/25', '2025-01-01T00:00:00.123456Z', 7];
    expect(decodeCursor('case_list', encodeCursor('case_list', hebrew))).toEqual(hebrew);
  });

  it('treat an absent or empty cursor as the first page', () => {
    expect(decodeCursor('thing_list', undefined)).toBeUndefined();
    expect(decodeCursor('thing_list', '')).toBeUndefined();
  });

  it('refuse another tool’s cursor and anything they did not issue, as invalid_args naming cursor', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    const bad = [
      encodeCursor('other_list', ['a']),
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
      const e = refusal(() => decodeCursor('thing_list', cursor));
      expect(e.code, cursor).toBe('invalid_args');
      expect(e.details).toEqual({ issues: [{ path: 'cursor', message: 'unrecognised cursor' }] });
      expect(e.hint).toMatch(/next_cursor/);
    }
  });

  it('refuse a key of the wrong shape when the tool says what its keys look like', () => {
    const isKey = (k: (string | number)[]) => k.length === 2 && typeof k[1] === 'number';
    expect(decodeCursor('thing_list', encodeCursor('thing_list', ['a', 1]), isKey)).toEqual(['a', 1]);
    expect(
      refusal(() => decodeCursor('thing_list', encodeCursor('thing_list', ['a', 'b']), isKey)).code,
    ).toBe('invalid_args');
  });

  it('never throw anything but invalid_args for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (cursor) => {
        try {
          decodeCursor('thing_list', cursor);
        } catch (e) {
          expect(isToolError(e) && e.code === 'invalid_args').toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('toPage', () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, n: i }));
  const page = (fetched: typeof rows, limit: number) =>
    toPage(
      'thing_list',
      fetched,
      limit,
      (r) => [r.n, r.id],
      (r) => r.id,
    );

  it('uses the extra fetched row only to say there is more, and keys the cursor on the last row shown', () => {
    const p = page(rows.slice(0, 3), 2);
    expect(p.items).toEqual(['r0', 'r1']);
    expect(p.limit).toBe(2);
    expect(p.next_cursor).not.toBeNull();
    expect(decodeCursor('thing_list', p.next_cursor ?? undefined)).toEqual([1, 'r1']);
  });

  it('ends with next_cursor null when nothing more was fetched', () => {
    expect(page(rows.slice(0, 2), 2)).toEqual({ items: ['r0', 'r1'], limit: 2, next_cursor: null });
    expect(page([], 20)).toEqual({ items: [], limit: 20, next_cursor: null });
  });
});
