// The JSON Schemas that tools/list advertises, derived from the tools' zod schemas. What zod emits is
// trimmed of what tells a client nothing (a regex that restates a `format`, ±2^53 bounds on every integer)
// and rewritten where clients disagree (a `type` array becomes `anyOf`, which every dialect reads).
import { z } from 'zod';

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
  if (io === 'output') {
    // Field meanings and which fields are always present are documented once (docs/tools.md); the
    // advertised shape is for structure, and an output object may grow new fields.
    delete s.description;
    delete s.required;
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

/** A zod schema as tools/list advertises it: input (what the tool accepts) or output (what it returns). */
export function advertisedSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return walk(json, (s) => trim(s, io)) as JsonSchema;
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
    if (Array.isArray(arms)) arms.forEach((s, i) => found.push(...untypedPaths(s, `${path}.${k}[${i}]`)));
  }
  for (const k of maps) {
    const m = schema[k];
    if (isObject(m)) for (const [n, s] of Object.entries(m)) found.push(...untypedPaths(s, `${path}.${n}`));
  }
  return found;
}

/** Arrays without `maxItems` (outside `skip`, the paging tool's own `items`): lists nothing bounds. */
export function unboundedArrays(schema: unknown, path = '', skip?: string): string[] {
  if (!isObject(schema)) return [];
  const found: string[] = [];
  if (schema.type === 'array' && typeof schema.maxItems !== 'number' && path !== skip) found.push(path);
  for (const k of single) if (k in schema) found.push(...unboundedArrays(schema[k], `${path}[]`, skip));
  for (const k of lists) {
    const arms = schema[k];
    if (Array.isArray(arms)) for (const s of arms) found.push(...unboundedArrays(s, path, skip));
  }
  const props = schema.properties;
  if (isObject(props)) {
    for (const [n, s] of Object.entries(props))
      found.push(...unboundedArrays(s, path ? `${path}.${n}` : n, skip));
  }
  return found;
}
