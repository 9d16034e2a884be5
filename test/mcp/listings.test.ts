// A tool call's result as the /mcp hot path writes it: the envelope serialised once, and the text the same as
// serialising the SDK's result object (test/e2e/fast_path.test.ts compares whole answers with the SDK's).
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.ts';
import { errorEnvelope } from '../../src/contract/envelope.ts';
import { callToolResult, callToolResultJson } from '../../src/mcp/listings.ts';

const envelopes: [string, Envelope][] = [
  ['an empty ok', { ok: true, status: 'ok', data: {}, message: 'bench_noop_get succeeded' }],
  [
    'an empty page',
    { ok: true, status: 'empty', data: { items: [], next_cursor: null }, message: 'Nothing matches' },
  ],
  [
    'Hebrew, quotes, backslashes, control characters and lone surrogates',
    {
      ok: true,
      status: 'ok',
      data: {
        text: 'בר"ם 7777/19 — «היטל השבחה»\n\t\\ "ציטוט" \u0000\u001f \ud800 \u2028',
        nested: { list: [1, 2.5, -0, null, true, { k: 'v' }], unicodeKey: { מפתח: 'ערך' } },
      },
      message: 'ok',
    },
  ],
  ['an error', errorEnvelope('not_found', 'No case "x".', { hint: 'Call case_list.', details: { id: 'x' } })],
];

describe('callToolResultJson', () => {
  it.each(envelopes)('%s: the same bytes as JSON.stringify(callToolResult(envelope))', (_name, envelope) => {
    const json = callToolResultJson(envelope);
    expect(json).toBe(JSON.stringify(callToolResult(envelope)));
    const parsed = JSON.parse(json) as ReturnType<typeof callToolResult>;
    expect(parsed.structuredContent).toEqual(JSON.parse(JSON.stringify(envelope)));
    expect(parsed.isError).toBe(!envelope.ok);
    expect(JSON.parse(parsed.content[0]?.text ?? 'null')).toEqual(parsed.structuredContent);
  });

  it('leaves out undefined fields as JSON.stringify does', () => {
    const envelope = { ok: true, status: 'ok', data: { a: undefined, b: 1 }, message: 'm' } as Envelope;
    expect(callToolResultJson(envelope)).toBe(JSON.stringify(callToolResult(envelope)));
    expect(callToolResultJson(envelope)).not.toContain('"a"');
  });
});
