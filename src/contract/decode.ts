import type * as z from 'zod';
import { type ArgIssue, invalidArgs } from './errors.ts';
import { nearestName } from './naming.ts';
import { advertisedSchema } from './schema.ts';

/** JSON types a parameter schema accepts; 'any' when the schema does not constrain the type. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null' | 'any';

type JsonSchema = Record<string, unknown>;

const asSchema = (v: unknown): JsonSchema | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonSchema) : undefined;

const typeOfValue = (v: unknown): JsonType => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' || t === 'boolean' || t === 'object') return t;
  if (t === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return 'any';
};

/** The set of JSON types a JSON Schema accepts (C3 decides decoding per parameter from it). */
export function acceptedTypes(
  schema: unknown,
  defs: Record<string, unknown> = {},
  seen: ReadonlySet<string> = new Set(),
): Set<JsonType> {
  const s = asSchema(schema);
  const out = new Set<JsonType>();
  if (s === undefined) {
    if (schema === false) return out;
    out.add('any');
    return out;
  }
  let constrained = false;
  // Reused schemas (zod `.meta({ id })`) arrive as references into $defs: follow them, once each.
  const ref = typeof s.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1] : undefined;
  if (ref !== undefined && ref in defs && !seen.has(ref)) {
    constrained = true;
    for (const t of acceptedTypes(defs[ref], defs, new Set([...seen, ref]))) out.add(t);
  }
  if (typeof s.type === 'string' || Array.isArray(s.type)) {
    constrained = true;
    for (const t of [s.type].flat()) out.add(t as JsonType);
  }
  if (Array.isArray(s.enum)) {
    constrained = true;
    for (const v of s.enum) out.add(typeOfValue(v));
  }
  if ('const' in s) {
    constrained = true;
    out.add(typeOfValue(s.const));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const arms = s[key];
    if (Array.isArray(arms)) {
      constrained = true;
      for (const arm of arms) for (const t of acceptedTypes(arm, defs, seen)) out.add(t);
    }
  }
  if (!constrained) out.add('any');
  return out;
}

/** Why a parameter schema is ambiguous under C3 (accepts a string and a container or anything), or null. */
export function ambiguity(types: Set<JsonType>): string | null {
  if (!types.has('string') && !types.has('any')) return null;
  if (types.has('any'))
    return 'accepts any JSON value, so a JSON-looking string could be meant as text or as data';
  if (types.has('array') || types.has('object')) {
    return 'accepts both a string and a container, so a JSON-looking string could be meant as text or as data';
  }
  return null;
}

export interface ParamPlan {
  name: string;
  types: Set<JsonType>;
  required: boolean;
  /** False when the schema accepts a string: such a value is passed through verbatim. */
  parseJsonText: boolean;
}

export interface DecodePlan {
  params: Map<string, ParamPlan>;
  names: readonly string[];
  schema: z.ZodObject<z.ZodRawShape>;
  /** The advertised JSON Schema (input side), with `additionalProperties: false`. */
  jsonSchema: Record<string, unknown>;
}

/** `json`: the schema's advertised JSON Schema when already derived (the registry's memo). */
export function planDecoding(
  schema: z.ZodObject<z.ZodRawShape>,
  json: Record<string, unknown> = advertisedSchema(schema, 'input'),
): DecodePlan {
  json.additionalProperties = false;
  const props = asSchema(json.properties) ?? {};
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  const params = new Map<string, ParamPlan>();
  for (const [name, propSchema] of Object.entries(props)) {
    const types = acceptedTypes(propSchema, asSchema(json.$defs) ?? {});
    params.set(name, {
      name,
      types,
      required: required.has(name),
      parseJsonText: !types.has('string') && !types.has('any'),
    });
  }
  return { params, names: [...params.keys()], schema, jsonSchema: json };
}

/** A parameter that takes text and no number or boolean. */
const isTextParam = (types: Set<JsonType>) =>
  types.has('string') && !['number', 'integer', 'boolean', 'any'].some((t) => types.has(t as JsonType));

const describeTypes = (types: Set<JsonType>) => [...types].filter((t) => t !== 'null').join(' or ');

/**
 * Text that cannot be stored as sent: NUL (PostgreSQL text refuses it) or UTF-16 that is not Unicode (an
 * unpaired surrogate, which UTF-8 turns into U+FFFD, so it would not read back as it was written).
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL = String.fromCharCode(0);

/** Why `text` cannot be stored as sent, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes(NUL)) return 'contains a NUL character (U+0000), which text cannot hold; remove it';
  if (UNPAIRED_SURROGATE.test(text)) {
    return 'is not valid Unicode text (an unpaired UTF-16 surrogate); send whole characters';
  }
  return null;
}

/** The first string inside `value` that cannot be stored, with why; iterative, so any nesting depth is safe. */
function unstorableText(value: unknown): string | null {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const reason = unstorableReason(v);
      if (reason !== null) return reason;
    } else if (typeof v === 'object' && v !== null) {
      for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push(item);
    }
  }
  return null;
}

/**
 * C3: decode raw arguments exactly as sent, then validate.
 * Strings reach string parameters verbatim; non-string parameters also accept JSON text of the right
 * type (parsed once); unknown names are refused with the nearest declared name; null means "not given".
 */
export function decodeArguments(plan: DecodePlan, raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidArgs(
      [{ path: '(arguments)', message: `expected an object of named parameters, got ${typeOfValue(raw)}` }],
      'Send the arguments as a JSON object, e.g. {"case_id": "…"}.',
      {
        message: 'Arguments must be a JSON object of named parameters.',
        details: { parameters: plan.names },
      },
    );
  }
  const issues: ArgIssue[] = [];
  const unknown: { name: string; did_you_mean?: string }[] = [];
  const decoded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const param = plan.params.get(name);
    if (param === undefined) {
      const near = nearestName(name, plan.names);
      unknown.push(near === undefined ? { name } : { name, did_you_mean: near });
      continue;
    }
    if (value === null && !param.required) continue;
    if (typeof value === 'string' && param.parseJsonText) {
      try {
        const parsed: unknown = JSON.parse(value);
        // "null" sent as text for an optional parameter is JSON null, which means "not given" (as above).
        if (parsed !== null || param.required) decoded[name] = parsed;
      } catch {
        issues.push({
          path: name,
          message: `expected ${describeTypes(param.types)}, got a string that is not JSON text of that type`,
        });
      }
      continue;
    }
    if ((typeof value === 'number' || typeof value === 'boolean') && isTextParam(param.types)) {
      // Some clients type "2025" as a number; C3 never guesses, so say how to send it.
      issues.push({
        path: name,
        message: `expected a string, got a ${typeof value}: send it as a JSON string, e.g. "${String(value)}"`,
      });
      continue;
    }
    decoded[name] = value;
  }
  // Before the schema: a string that cannot be stored is refused as sent, never altered or failed on later.
  for (const [name, value] of Object.entries(decoded)) {
    const problem = unstorableText(value);
    if (problem !== null) {
      issues.push({ path: name, message: problem });
      delete decoded[name];
    }
  }
  if (unknown.length > 0) {
    const first = unknown[0] as { name: string; did_you_mean?: string };
    const suggestion = first.did_you_mean === undefined ? '' : ` — did you mean "${first.did_you_mean}"?`;
    throw invalidArgs(
      unknown.map((u) => ({
        path: u.name,
        message: `unknown argument${u.did_you_mean === undefined ? '' : `; did you mean "${u.did_you_mean}"?`}`,
      })),
      'Use only the declared parameter names; nothing unknown is dropped silently.',
      {
        message: `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u.name}"`).join(', ')}${suggestion}`,
        details: { unknown_arguments: unknown, parameters: plan.names },
      },
    );
  }
  const result = plan.schema.safeParse(decoded);
  if (!result.success) {
    // A parameter already refused above is left out of `decoded`: its "required" issue says nothing new.
    const reported = new Set(issues.map((i) => i.path));
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.') || '(arguments)';
      if (!reported.has(String(issue.path[0]))) issues.push({ path, message: issue.message });
    }
  }
  if (issues.length > 0 || !result.success)
    throw invalidArgs(issues, 'Fix the listed parameters and call again.');
  return result.data as Record<string, unknown>;
}
