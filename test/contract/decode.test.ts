// C3 (docs/contract.md "Arguments"): arguments arrive as sent. Unit cases first, then properties over arbitrary JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { acceptedTypes, decodeArguments, planDecoding, unstorableReason } from '../../src/contract/decode.ts';
import { isToolError, type ToolError } from '../../src/contract/errors.ts';

const schema = z.object({
  section: z.string().describe('A free-text section name'),
  label: z.string().optional().describe('Optional text'),
  state: z.enum(['draft', 'final']).optional().describe('A string enum'),
  maybe: z.string().nullable().optional().describe('Text or null'),
  tags: z.array(z.string()).optional().describe('A list of strings'),
  values: z.array(z.json()).optional().describe('A list of any JSON values'),
  meta: z.record(z.string(), z.json()).optional().describe('An object of any JSON values'),
  point: z.object({ x: z.number(), y: z.number() }).optional().describe('A fixed-shape object'),
  count: z.number().int().optional().describe('An integer'),
  ratio: z.number().optional().describe('A number'),
  flag: z.boolean().optional().describe('A boolean'),
  pages: z.number().int().min(1).default(1).describe('An integer with a default'),
});
const plan = planDecoding(schema);
const declared = [...plan.names];

/** Runs the decoder and returns the ToolError it throws (failing the test if it does not throw one). */
function refusal(raw: unknown): ToolError {
  try {
    decodeArguments(plan, raw);
  } catch (e) {
    if (isToolError(e)) return e;
    throw e;
  }
  throw new Error(`expected a refusal for ${JSON.stringify(raw)}`);
}
const decode = (raw: unknown) => decodeArguments(plan, raw);

describe('decodeArguments: unit cases', () => {
  it('passes strings to a string parameter verbatim, JSON-looking or not', () => {
    for (const text of [
      'null',
      '[1, 2]',
      '{"a": 1}',
      '',
      '   ',
      ' \t\n ',
      '"quoted"',
      '020',
      'true',
      '1.5',
      'ערר 1/25',
    ]) {
      expect(decode({ section: text }).section).toBe(text);
      expect(decode({ section: 's', label: text }).label).toBe(text);
      expect(decode({ section: 's', maybe: text }).maybe).toBe(text);
    }
    expect(decode({ section: 's', state: 'draft' }).state).toBe('draft');
    // A string enum is a string parameter: JSON text of the value is not unwrapped.
    expect(refusal({ section: 's', state: '"draft"' }).code).toBe('invalid_args');
  });

  it('accepts JSON text for array, object, number, integer and boolean parameters, then validates it', () => {
    expect(decode({ section: 's', tags: '["a", "b"]' }).tags).toEqual(['a', 'b']);
    expect(decode({ section: 's', tags: ['a', 'b'] }).tags).toEqual(['a', 'b']);
    expect(decode({ section: 's', values: '[1, "x", null, {"k": [true]}]' }).values).toEqual([
      1,
      'x',
      null,
      { k: [true] },
    ]);
    expect(decode({ section: 's', meta: '{"a": 1}' }).meta).toEqual({ a: 1 });
    expect(decode({ section: 's', point: ' {"x": 1, "y": 2.5} ' }).point).toEqual({ x: 1, y: 2.5 });
    expect(decode({ section: 's', count: '5' }).count).toBe(5);
    expect(decode({ section: 's', count: '-12' }).count).toBe(-12);
    expect(decode({ section: 's', ratio: '1.5' }).ratio).toBe(1.5);
    expect(decode({ section: 's', ratio: '1e3' }).ratio).toBe(1000);
    expect(decode({ section: 's', flag: 'true' }).flag).toBe(true);
    expect(decode({ section: 's', flag: 'false' }).flag).toBe(false);
    // Parsed once: JSON text of JSON text is a string, which an array parameter refuses.
    expect(refusal({ section: 's', tags: JSON.stringify('["a"]') }).code).toBe('invalid_args');
    // Parsed, then validated: the items must be strings.
    expect(refusal({ section: 's', tags: '[1, 2]' }).message).toMatch(/tags/);
  });

  it('refuses "020" and "1.5" for an integer, and non-JSON text for any non-string parameter', () => {
    for (const [name, text] of [
      ['count', '020'],
      ['count', '1.5'],
      ['count', ''],
      ['count', 'five'],
      ['count', 'NaN'],
      ['ratio', 'Infinity'],
      ['ratio', '0x10'],
      ['flag', 'yes'],
      ['flag', 'True'],
      ['flag', '1'],
      ['tags', 'a,b'],
      ['tags', ''],
      ['meta', "{'a': 1}"],
      ['point', '{"x": 1}'],
    ] as const) {
      const e = refusal({ section: 's', [name]: text });
      expect(e.code, `${name}=${text}`).toBe('invalid_args');
      expect(e.message, `${name}=${text}`).toContain(name);
      const issues = (e.details?.issues ?? []) as { path: string }[];
      expect(issues.some((i) => i.path === name || i.path.startsWith(`${name}.`))).toBe(true);
    }
    expect(refusal({ section: 's', count: 1.5 }).code).toBe('invalid_args');
  });

  it('treats null for an optional parameter as not given, and refuses null for a required one', () => {
    const out = decode({ section: 's', label: null, tags: null, count: null, flag: null, pages: null });
    expect(out).toEqual({ section: 's', pages: 1 });
    expect('label' in out).toBe(false);
    // A nullable optional parameter: null still means "not given" (C3), not an explicit null.
    expect('maybe' in decode({ section: 's', maybe: null })).toBe(false);
    const e = refusal({ section: null });
    expect(e.message).toMatch(/section/);
    // A client that sends every value as JSON text sends null as "null": for a non-string parameter that is
    // JSON null too, so it also means "not given"; for a string parameter it is the text "null".
    expect(decode({ section: 's', count: 'null', tags: 'null', flag: 'null', pages: 'null' })).toEqual({
      section: 's',
      pages: 1,
    });
    expect(decode({ section: 's', label: 'null' }).label).toBe('null');
  });

  it('refuses unknown names with the nearest declared name, dropping nothing', () => {
    const e = refusal({ secton: 'intro' });
    expect(e.code).toBe('invalid_args');
    expect(e.message).toContain('"secton"');
    expect(e.message).toContain('did you mean "section"');
    expect(e.details).toMatchObject({
      unknown_arguments: [{ name: 'secton', did_you_mean: 'section' }],
      parameters: declared,
    });
    // Reported even when everything else is valid, with every unknown name listed.
    const many = refusal({ section: 's', tgas: ['a'], zzzzzzzzzzzz: 1 });
    expect(many.details?.unknown_arguments).toEqual([
      { name: 'tgas', did_you_mean: 'tags' },
      { name: 'zzzzzzzzzzzz' },
    ]);
    expect(many.message).toContain('"zzzzzzzzzzzz"');
    // Case differences are typos too.
    expect(refusal({ Section: 's' }).details?.unknown_arguments).toEqual([
      { name: 'Section', did_you_mean: 'section' },
    ]);
    // Own "__proto__" and inherited-looking names are unknown arguments, not prototype tricks.
    const proto = refusal(JSON.parse('{"section": "s", "__proto__": {"x": 1}}'));
    expect(proto.details?.unknown_arguments).toEqual([expect.objectContaining({ name: '__proto__' })]);
    expect(refusal({ section: 's', constructor: 'x' }).code).toBe('invalid_args');
  });

  it('never lets a "__proto__" key inside data change a prototype (zod drops the key)', () => {
    const text = '{"__proto__": {"polluted": true}, "a": 2}';
    const out = decode({ section: 's', meta: text, values: `[${text}]` });
    for (const value of [out.meta, (out.values as unknown[])[0]]) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect((value as { polluted?: unknown }).polluted).toBeUndefined();
      expect((value as { a?: unknown }).a).toBe(2);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses text that cannot be stored as sent: NUL or an unpaired surrogate, at any depth', () => {
    for (const [raw, path] of [
      [{ section: 'a\u0000b' }, 'section'],
      [{ section: 'x', label: '\uD800' }, 'label'],
      [{ section: 'x', tags: ['ok', 'y\uDFFFz'] }, 'tags'],
      [{ section: 'x', tags: '["\\u0000"]' }, 'tags'],
      [{ section: 'x', meta: { deep: [[{ k: '\uDBFF' }]] } }, 'meta'],
    ] as const) {
      const e = refusal(raw);
      expect(e.code).toBe('invalid_args');
      expect(e.details?.issues).toEqual([
        { path, message: expect.stringMatching(/NUL|unpaired UTF-16 surrogate/) },
      ]);
    }
    // Whole characters pass verbatim: a pair, combining marks, niqqud, bidi marks.
    const text = '\u200Fשָׁלוֹם 👩‍⚖️ e\u0301\u200E';
    expect(decodeArguments(plan, { section: text }).section).toBe(text);
    // Nesting deeper than a recursive walk could take is refused by the schema, not by a stack overflow.
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`);
    expect(refusal({ section: 'x', values: deep }).code).toBe('invalid_args');
  });

  it('refuses arguments that are not an object of named parameters', () => {
    for (const raw of [[], ['section'], 'section', 5, true, '{"section": "s"}']) {
      const e = refusal(raw);
      expect(e.code, JSON.stringify(raw)).toBe('invalid_args');
      expect(e.message).toMatch(/JSON object/);
      expect(e.details?.parameters).toEqual(declared);
    }
    // No arguments at all is an empty object: here the required parameter is then missing.
    expect(refusal(undefined).message).toMatch(/section/);
    expect(refusal(null).message).toMatch(/section/);
  });

  it('advertises additionalProperties: false and decides per parameter whether JSON text is parsed', () => {
    expect(plan.jsonSchema.additionalProperties).toBe(false);
    expect(plan.jsonSchema.$schema).toBeUndefined();
    const parses = Object.fromEntries([...plan.params.values()].map((p) => [p.name, p.parseJsonText]));
    expect(parses).toEqual({
      section: false,
      label: false,
      state: false,
      maybe: false,
      tags: true,
      values: true,
      meta: true,
      point: true,
      count: true,
      ratio: true,
      flag: true,
      pages: true,
    });
    expect(plan.params.get('section')?.required).toBe(true);
    expect(plan.params.get('pages')?.required).toBe(false);
    expect([...acceptedTypes({ anyOf: [{ type: 'string' }, { type: 'null' }] })].sort()).toEqual([
      'null',
      'string',
    ]);
    expect([...acceptedTypes({})]).toEqual(['any']);
    expect([...acceptedTypes({ enum: [1, 'a'] })].sort()).toEqual(['integer', 'string']);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties. Values that JSON cannot carry back unchanged (-0, lone surrogates in keys) are excluded where
// the property is about JSON text; the verbatim-string property takes any string at all.

const runs = { numRuns: 300 };
const notNegativeZero = (v: number) => !Object.is(v, -0);
const jsonDouble = fc.double({ noNaN: true, noDefaultInfinity: true }).filter(notNegativeZero);
/**
 * JSON values with no -0 anywhere (JSON.stringify(-0) is "0") and no "__proto__" key: zod drops such a key
 * from records and JSON data (its guard against prototype pollution; see the unit case above).
 */
const jsonValue = fc
  .jsonValue()
  .filter(
    (v) => !JSON.stringify(v, (k, x) => (Object.is(x, -0) || k === '__proto__' ? '§§' : x)).includes('§§'),
  );
const dataKey = fc.string().filter((k) => k !== '__proto__');

describe('decodeArguments: properties', () => {
  // Storable: no NUL, no unpaired surrogate (those are refused, below).
  const storable = (t: string) => unstorableReason(t) === null;

  it('(a) any storable string reaches a string parameter unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }).filter(storable), fc.string({ unit: 'grapheme' }), (a, b) => {
        const out = decode({ section: a, label: b });
        expect(out.section).toBe(a);
        expect(out.label).toBe(b);
      }),
      runs,
    );
  });

  it('(a) a string that cannot be stored as sent is refused, never altered', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter((t) => !storable(t)),
        (a) => {
          expect(refusal({ section: a }).code).toBe('invalid_args');
        },
      ),
      runs,
    );
  });

  it('(a) JSON text of any value reaches a string parameter as that text, not parsed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(decode({ section: text }).section).toBe(text);
      }),
      runs,
    );
  });

  it('(b) JSON.stringify(v) of a valid value decodes to a value deep-equal to v, for every non-string type', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            tags: fc.array(fc.string()),
            values: fc.array(jsonValue),
            meta: fc.dictionary(dataKey, jsonValue, { noNullPrototype: true }),
            point: fc.record({ x: jsonDouble, y: jsonDouble }),
            count: fc.maxSafeInteger().filter(notNegativeZero),
            ratio: jsonDouble,
            flag: fc.boolean(),
            pages: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
          },
          { requiredKeys: [] },
        ),
        (given) => {
          const asText = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, JSON.stringify(v)]));
          const fromText = decode({ section: 's', ...asText });
          const direct = decode({ section: 's', ...given });
          for (const [k, v] of Object.entries(given)) {
            // toEqual for structure; the JSON text comparison also catches a dropped key or a changed order.
            expect(fromText[k]).toEqual(v);
            expect(JSON.stringify(fromText[k])).toBe(JSON.stringify(v));
            expect(direct[k]).toEqual(v);
          }
        },
      ),
      runs,
    );
  });

  it('(c) arbitrary JSON never makes the decoder throw anything but ToolError(invalid_args)', () => {
    const param = fc.constantFrom(...declared);
    const value = fc.oneof(
      fc.jsonValue(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.dictionary(param, value),
          fc.dictionary(fc.oneof(param, fc.string()), value),
        ),
        (raw) => {
          try {
            const out = decode(raw);
            expect(typeof out.section).toBe('string');
          } catch (e) {
            expect(isToolError(e)).toBe(true);
            expect((e as ToolError).code).toBe('invalid_args');
            expect((e as ToolError).message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('(d) extra keys are always refused, each named, whatever else is sent', () => {
    const extraKey = fc.string({ minLength: 1 }).filter((k) => !declared.includes(k));
    fc.assert(
      fc.property(
        fc.uniqueArray(extraKey, { minLength: 1, maxLength: 4 }),
        fc.array(fc.jsonValue(), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (extras, values, validRest) => {
          const raw: Record<string, unknown> = validRest ? { section: 's', count: 3 } : {};
          // defineProperty, so an extra key "__proto__" is an own key like any other.
          extras.forEach((k, i) => {
            Object.defineProperty(raw, k, {
              value: values[i],
              enumerable: true,
              configurable: true,
              writable: true,
            });
          });
          const e = refusal(raw);
          expect(e.code).toBe('invalid_args');
          const named = ((e.details?.unknown_arguments ?? []) as { name: string }[]).map((u) => u.name);
          expect(named.sort()).toEqual([...extras].sort());
        },
      ),
      runs,
    );
  });
});

describe('reused schemas ($ref into $defs)', () => {
  it('follows references: a reused string schema is verbatim, a reused array schema takes JSON text', async () => {
    const z = await import('zod');
    const { planDecoding, decodeArguments } = await import('../../src/contract/decode.ts');
    const Name = z.string().max(50).meta({ id: 'PartyName' });
    const Names = z.array(z.string()).meta({ id: 'PartyNames' });
    const plan = planDecoding(
      z.object({ one: Name.describe('one'), two: Name.describe('two'), many: Names.describe('many') }),
    );
    expect(plan.params.get('one')?.parseJsonText).toBe(false);
    expect(plan.params.get('many')?.parseJsonText).toBe(true);
    expect(decodeArguments(plan, { one: '[1, 2]', two: 'null', many: '["a", "b"]' })).toEqual({
      one: '[1, 2]',
      two: 'null',
      many: ['a', 'b'],
    });
  });
});
