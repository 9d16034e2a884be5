// boundedMemo: each key computed once while kept, at most `limit` kept, and a key cycling past the limit
// computed again rather than the memo growing.
import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../src/memo.ts';

describe('boundedMemo', () => {
  it('computes a key once while it is kept, undefined and false answers included', () => {
    const calls: (string | undefined)[] = [];
    const memo = boundedMemo(8, (k: string | undefined) => {
      calls.push(k);
      return k === undefined ? undefined : k.length > 3;
    });
    expect([memo('host'), memo('ab'), memo(undefined), memo('host'), memo('ab'), memo(undefined)]).toEqual([
      true,
      false,
      undefined,
      true,
      false,
      undefined,
    ]);
    expect(calls).toEqual(['host', 'ab', undefined]);
  });

  it('keeps at most `limit` keys, then starts over with the right answers', () => {
    let computed = 0;
    const memo = boundedMemo(3, (k: number) => {
      computed++;
      return k * 2;
    });
    for (let k = 0; k < 10; k++) expect(memo(k)).toBe(k * 2);
    expect(computed).toBe(10);
    // 9 is kept (the last start-over kept 9 alone), 0 was dropped long ago.
    expect(memo(9)).toBe(18);
    expect(computed).toBe(10);
    expect(memo(0)).toBe(0);
    expect(computed).toBe(11);
  });
});
