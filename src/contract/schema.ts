// The JSON Schemas that tools/list advertises, derived from the tools' zod schemas. What zod emits is
// trimmed of what tells a client nothing (a regex that restates a `format`, ±2^53 bounds on every integer)
// and rewritten where clients disagree (a `type` array becomes `anyOf`, which every dialect reads).
import * as z from 'zod';

export type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords that hold one subschema, a list of them, or a map of them. */
const single = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'] as const;
const lists = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const maps = ['properties', '$defs', 'patternProperties'] as const;

/** Keywords a `type` union's arms share rather than split. */
const shared = new Set(['description', 'title', 'default', 'examples']);

function walk(node: unknown, visit: (s: JsonSchema) => JsonSchema): unknown {
  if (!isObject(node)) return node;
  const out: JsonSchema = { ...node };
  for (const k of single) if (k in out) out[k] = walk(out[k], visit);
  for (const k of lists) if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((s) => walk(s, visit));
  for (const k of maps) {
    const m = out[k];
    if (isObject(m)) out[k] = Object.fromEntries(Object.entries(m).map(([n, s]) => [n, walk(s, visit)]));
  }
  return visit(out);
}

function trim(s: JsonSchema, io: 'input' | 'output'): JsonSchema {
  if (typeof s.format === 'string') delete s.pattern;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  // Text parameters never take a blank string (docs/contract.md "Arguments"); said once, not on every one.
  if (s.type === 'string' && s.minLength === 1) delete s.minLength;
  if (io === 'output') {
    // An output is advertised for its structure and types. What fields mean, which are always present, the
    // values an enum takes and the format of a string are documented once (docs/tools.md), and an output
    // object may grow new fields.
    for (const k of ['description', 'required', 'format', 'minimum', 'maximum', 'minLength', 'maxLength'])
      delete s[k];
    if (Array.isArray(s.enum) && typeof s.type === 'string') delete s.enum;
    if (s.additionalProperties === false) delete s.additionalProperties;
  }
  if (Array.isArray(s.type)) {
    const types = s.type as string[];
    const common: JsonSchema = {};
    const rest: JsonSchema = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 'type') continue;
      (shared.has(k) ? common : rest)[k] = v;
    }
    return { ...common, anyOf: types.map((t) => (t === 'null' ? { type: t } : { type: t, ...rest })) };
  }
  return s;
}

/** A zod schema as JSON Schema, trimmed for clients: input (what a tool accepts) or output (what it returns). */
export function trimmedSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return walk(json, (s) => trim(s, io)) as JsonSchema;
}

/** A zod schema as tools/list advertises it: an input whole, an output in outline. */
export function advertisedSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const trimmed = trimmedSchema(schema, io);
  return io === 'output' ? outline(trimmed, 0) : trimmed;
}

/** An output as the registry checks it (every depth) and as tools/list advertises it (in outline). */
export function outputSchemas(schema: z.ZodType): { full: JsonSchema; advertised: JsonSchema } {
  const full = trimmedSchema(schema, 'output');
  return { full, advertised: outline(full, 0) };
}

/**
 * An output advertised to a depth: the fields of `data` (and, for a page, the fields of its items) with
 * their types; an object below that is advertised as an object, its fields documented in docs/tools.md
 * and checked by the test suite. Every tool's outputSchema stays a few hundred bytes, so that tools/list
 * fits a model's context (docs/contract.md "Envelope").
 */
function outline(s: JsonSchema, depth: number): JsonSchema {
  if (Array.isArray(s.anyOf)) return { ...s, anyOf: (s.anyOf as JsonSchema[]).map((a) => outline(a, depth)) };
  if (s.type === 'array' && isObject(s.items)) return { ...s, items: outline(s.items, depth) };
  if (s.type !== 'object' || !isObject(s.properties)) return s;
  if (depth < 0) return { type: 'object' };
  const props = Object.entries(s.properties as Record<string, JsonSchema>).map(([name, p]) => [
    name,
    // A page's items are what the tool returns: their fields count as data's own.
    outline(p, name === 'items' && depth === 0 ? depth : depth - 1),
  ]);
  return { ...s, properties: Object.fromEntries(props) };
}

/**
 * Where a schema accepts anything (`{}`): clients cannot tell what to send or expect there. Returns the
 * paths of such places, for the registry to refuse.
 */
export function untypedPaths(schema: unknown, path = ''): string[] {
  if (!isObject(schema)) return schema === true ? [path || '(root)'] : [];
  const found: string[] = [];
  const keys = Object.keys(schema).filter((k) => !shared.has(k));
  if (keys.length === 0) found.push(path || '(root)');
  for (const k of single) if (k in schema) found.push(...untypedPaths(schema[k], `${path}.${k}`));
  for (const k of lists) {
    const arms = schema[k];
    if (Array.isArray(arms)) {
      for (const [i, arm] of arms.entries()) found.push(...untypedPaths(arm, `${path}.${k}[${i}]`));
    }
  }
  for (const k of maps) {
    const m = schema[k];
    if (isObject(m)) for (const [n, s] of Object.entries(m)) found.push(...untypedPaths(s, `${path}.${n}`));
  }
  return found;
}

/** Arrays without `maxItems`: lists nothing bounds. */
export function unboundedArrays(schema: unknown, path = ''): string[] {
  if (!isObject(schema)) return [];
  const found: string[] = [];
  if (schema.type === 'array' && typeof schema.maxItems !== 'number') found.push(path);
  for (const k of single) if (k in schema) found.push(...unboundedArrays(schema[k], `${path}[]`));
  for (const k of lists) {
    const arms = schema[k];
    if (Array.isArray(arms)) for (const s of arms) found.push(...unboundedArrays(s, path));
  }
  const props = schema.properties;
  if (isObject(props)) {
    for (const [n, s] of Object.entries(props)) found.push(...unboundedArrays(s, path ? `${path}.${n}` : n));
  }
  return found;
}
