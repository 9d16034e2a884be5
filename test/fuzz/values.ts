// The fuzzer's raw material: hostile values, and the mutations that turn a tool's well-formed arguments (from
// its advertised input schema, test/harness/tool_args.ts) into what a confused or hostile client sends.
import * as fc from 'fast-check';
import { type JsonSchema, sampleValue } from '../harness/tool_args.ts';

/** Text that has broken servers: bidi marks, NUL, lone surrogates, combining marks, emoji, niqqud, SQL, paths. */
export const EDGE_STRINGS: readonly string[] = [
  '\u200Fערר 1024/25\u200E',
  '\u202Eתוכן הפוך\u202C',
  'a\u0000b',
  '\u0000',
  '\uD800',
  'x\uDFFFy',
  'e\u0301\u0302\u0303',
  'שָׁלוֹם עוֹלָם',
  'בְּרֵאשִׁית בָּרָא',
  '👩‍⚖️🏛️',
  '\uFEFFbom',
  '  ערר 1/25\t',
  '\u00A0כותרת\u3000',
  '\u2028\u2029',
  ' \t\n ',
  "'; drop table cases; --",
  'x" or "1"="1',
  '%_\\%',
  '$1 $$ \\x00',
  '../../etc/passwd',
  '..\\..\\windows\\system32',
  '/dev/null',
  'file:///etc/shadow',
  '<script>alert(1)</script>',
  // A template literal's marker, written so no linter takes it for a mistake.
  `{{7*7}} ${'$'}{7*7}`,
  'null',
  'true',
  '[1, 2]',
  '{"a": 1}',
  '020',
  '1e400',
  'ﷺ\u0610\u0611',
  '\u00A0\u2003\u3000',
];

/** Numbers at and past every kind of boundary (JSON cannot carry NaN or Infinity: they become null). */
export const EDGE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  1.5,
  -1.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  5e-324,
];

export const MUTATIONS = [
  'none',
  'wrong_type',
  'missing_required',
  'extra_field',
  'boundary_number',
  'string_at_max',
  'string_past_max',
  'json_text',
  'null_one',
  'null_all',
  'edge_string',
  'edge_string_all',
  'deep_nesting',
  'deep_json_text',
  'not_an_object',
  'all_optional',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** One call's random choices; everything else is derived from them, so a seed replays the run. */
export interface CallPlan {
  tool: number;
  mutation: Mutation;
  /** Picks a parameter, a value, a depth… */
  pick: number;
  pick2: number;
  /** A random string beside the fixed edge cases. */
  text: string;
  progress: boolean;
}

export const callPlan: fc.Arbitrary<CallPlan> = fc.record({
  tool: fc.nat(),
  mutation: fc.constantFrom(...MUTATIONS),
  pick: fc.nat(),
  pick2: fc.nat(),
  text: fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(...EDGE_STRINGS),
  ),
  progress: fc.boolean(),
});

/** JSON text to splice into the request as it is (fuzz.ts `requestText`). */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toJSON() {
    return RAW_PLACEHOLDER;
  }
}
export const RAW_PLACEHOLDER = '\u0001raw-json\u0001';

/** Longer than this, a string at its max is cut here (a 27 MiB base64 field would only slow the run). */
const LONGEST = 100_000;

const at = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

const wrongTypeFor = (schema: JsonSchema, i: number): unknown => {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const options: unknown[] =
    type === 'string'
      ? [42, true, ['a'], { a: 1 }, 0]
      : type === 'array'
        ? ['not json', { a: 1 }, 7, true]
        : type === 'object'
          ? ['not json', [1], 7]
          : type === 'boolean'
            ? ['yes', 1, [true], { a: true }]
            : ['twelve', true, [1], { n: 1 }, '1e3', '020'];
  return at(options, i);
};

const deep = (depth: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { d: v };
  return v;
};

/** The string a parameter of `schema` gets at (or one past) its maximum length, made of `unit`. */
const atLength = (schema: JsonSchema, past: boolean, unit: string): string => {
  const max = Math.min(schema.maxLength ?? 300, LONGEST);
  const n = past && (schema.maxLength ?? Infinity) <= LONGEST ? max + 1 : max;
  const piece = unit === '' ? 'א' : unit;
  const text = piece.repeat(Math.ceil(n / piece.length)).slice(0, n);
  // Cut between the halves of a surrogate pair, the last unit would be no character at all: end on a whole one.
  return /[\uD800-\uDBFF]$/.test(text) ? `${text.slice(0, -1)}a` : text;
};

/**
 * The arguments a call sends: `base` (well-formed) mutated as `plan` says. Returns what goes into
 * `params.arguments`, which may be no object at all.
 */
export function mutate(schema: JsonSchema, base: Record<string, unknown>, plan: CallPlan): unknown {
  const props = Object.entries(schema.properties ?? {});
  const names = Object.keys(base);
  const target = names.length > 0 ? at(names, plan.pick) : undefined;
  const propOf = (name: string) => schema.properties?.[name] ?? {};
  const args: Record<string, unknown> = { ...base };
  switch (plan.mutation) {
    case 'none':
      return args;
    case 'all_optional':
      for (const [name, prop] of props) if (!(name in args)) args[name] = sampleValue(prop, name);
      // Never wait on extraction here: a 10 s wait per call is not what is being tested.
      if ('wait_ms' in args) args.wait_ms = 0;
      return args;
    case 'wrong_type':
      if (target !== undefined) args[target] = wrongTypeFor(propOf(target), plan.pick2);
      return args;
    case 'missing_required': {
      const required = schema.required ?? [];
      if (required.length > 0) delete args[at(required, plan.pick)];
      return args;
    }
    case 'extra_field':
      args[at(['case_numbr', 'tool', '__proto__x', 'constructor', 'limit2', ''], plan.pick)] = plan.text;
      return args;
    case 'boundary_number': {
      const numeric = props.filter(([, p]) => p.type === 'integer' || p.type === 'number');
      if (numeric.length === 0) return args;
      const [name, prop] = at(numeric, plan.pick);
      const bounds = [prop.minimum, prop.maximum]
        .filter((b): b is number => b !== undefined)
        .flatMap((b) => [b - 1, b, b + 1]);
      const value = at([...bounds, ...EDGE_NUMBERS], plan.pick2);
      // wait_ms at its maximum would hold the call 10 s: its bounds are tested below the maximum.
      args[name] = name === 'wait_ms' ? Math.min(value, 50) : value;
      return args;
    }
    case 'string_at_max':
    case 'string_past_max': {
      const strings = props.filter(
        ([, p]) => p.type === 'string' && p.enum === undefined && p.format === undefined,
      );
      if (strings.length === 0) return args;
      const [name, prop] = at(strings, plan.pick);
      args[name] = atLength(
        prop,
        plan.mutation === 'string_past_max',
        at(['א', 'a', 'שָׁ', '👩‍⚖️'], plan.pick2),
      );
      return args;
    }
    case 'json_text':
      // Every parameter as JSON text of its value (C3: non-string parameters accept it; strings stay strings).
      for (const name of names) args[name] = JSON.stringify(args[name]);
      return args;
    case 'null_one':
      if (target !== undefined) args[target] = null;
      return args;
    case 'null_all':
      for (const [name] of props) args[name] = null;
      return args;
    case 'edge_string':
    case 'edge_string_all': {
      const value = plan.pick2 % 3 === 0 ? plan.text : at(EDGE_STRINGS, plan.pick2);
      const strings = props.filter(([, p]) => p.type === 'string');
      if (plan.mutation === 'edge_string') {
        if (strings.length > 0) args[at(strings, plan.pick)[0]] = value;
      } else {
        for (const [name] of strings) args[name] = value;
      }
      return args;
    }
    case 'deep_nesting':
      if (target !== undefined) args[target] = deep(at([50, 500, 1500], plan.pick2));
      else args.deep = deep(500);
      return args;
    case 'deep_json_text': {
      // Nesting deeper than JSON.stringify can write: the request carries it as raw JSON text (fuzz.ts).
      const depth = at([10_000, 100_000], plan.pick2);
      const raw = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
      if (target !== undefined) args[target] = new RawJson(raw);
      else args.deep = new RawJson(raw);
      return args;
    }
    case 'not_an_object':
      return at([[base], 'arguments', 7, true, null, [], JSON.stringify(base)], plan.pick2);
  }
}
