// docs/tools.md's field tables: a JSON Schema (parameters, or an output walked from its zod schema) as rows
// of name, type, required, bounds and description.
import * as z from 'zod';
import type { AnyTool } from '../../src/contract/define.ts';

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  bounds: string;
  description: string;
}

const refName = (s: JsonSchema) =>
  typeof s.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1] : undefined;

/** Follows a `$ref` into `$defs`, keeping the referring node's own description. */
function resolve(s: JsonSchema, defs: JsonSchema): JsonSchema {
  const name = refName(s);
  if (name === undefined || !isObject(defs[name])) return s;
  const { $ref: _, ...own } = s;
  return { ...(defs[name] as JsonSchema), ...own };
}

/** The arms of a union (`anyOf`/`oneOf`, or a `type` array), or the schema itself. */
function arms(s: JsonSchema, defs: JsonSchema): JsonSchema[] {
  const r = resolve(s, defs);
  const list = (Array.isArray(r.anyOf) ? r.anyOf : Array.isArray(r.oneOf) ? r.oneOf : undefined) as
    | unknown[]
    | undefined;
  if (list !== undefined) return list.filter(isObject).flatMap((a) => arms(a, defs));
  if (Array.isArray(r.type)) {
    const { type, ...rest } = r;
    return (type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t }));
  }
  return [r];
}

const isNull = (s: JsonSchema) => s.type === 'null';

function typeText(s: JsonSchema, defs: JsonSchema): string {
  const parts = arms(s, defs).map((a) => armType(a, defs));
  return [...new Set(parts)].join(' or ');
}

function armType(a: JsonSchema, defs: JsonSchema): string {
  if ('const' in a) return `\`${JSON.stringify(a.const)}\``;
  if (Array.isArray(a.enum)) return `one of ${a.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  switch (a.type) {
    case 'string':
      return typeof a.format === 'string' ? `string (${a.format})` : 'string';
    case 'array': {
      const items = isObject(a.items) ? a.items : {};
      const itemArms = arms(items, defs);
      const objects = itemArms.every((i) => i.type === 'object');
      const of = objects
        ? 'objects'
        : typeText(items, defs).replace(/^(string|integer|number|boolean)\b/, '$1s');
      return `array of ${of}`;
    }
    case 'object':
      if (!isObject(a.properties) && isObject(a.additionalProperties)) {
        return `object (values: ${typeText(a.additionalProperties, defs)})`;
      }
      return 'object';
    case undefined:
      return 'any';
    default:
      return String(a.type);
  }
}

const range = (min: unknown, max: unknown, unit = ''): string | undefined => {
  // zod bounds every integer by ±2^53 - 1; that is no bound worth reading.
  const lo = typeof min === 'number' && min !== Number.MIN_SAFE_INTEGER ? min : undefined;
  const hi = typeof max === 'number' && max !== Number.MAX_SAFE_INTEGER ? max : undefined;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `exactly ${lo}${unit}` : `${lo}..${hi}${unit}`;
  if (hi !== undefined) return `≤ ${hi}${unit}`;
  if (lo !== undefined) return `≥ ${lo}${unit}`;
  return undefined;
};

function boundsText(s: JsonSchema, defs: JsonSchema): string {
  const out: string[] = [];
  for (const a of arms(s, defs)) {
    if (isNull(a)) continue;
    out.push(
      ...[
        range(a.minLength, a.maxLength, ' chars'),
        range(a.minimum, a.maximum),
        range(a.exclusiveMinimum, undefined)?.replace('≥', '>'),
        range(undefined, a.exclusiveMaximum)?.replace('≤', '<'),
        range(a.minItems, a.maxItems, ' items'),
        // A format (uuid, date-time) says more than the regex zod emits for it.
        typeof a.pattern === 'string' && typeof a.format !== 'string'
          ? `pattern \`${a.pattern}\``
          : undefined,
      ].filter((b): b is string => b !== undefined),
    );
  }
  const r = resolve(s, defs);
  if ('default' in r) out.push(`default ${JSON.stringify(r.default)}`);
  return [...new Set(out)].join(', ');
}

function descriptionOf(s: JsonSchema, defs: JsonSchema): string {
  const r = resolve(s, defs);
  if (typeof r.description === 'string') return r.description;
  for (const a of arms(s, defs)) if (typeof a.description === 'string') return a.description;
  return '';
}

/**
 * The fields of an object schema as rows, nested objects and arrays of objects as dotted paths
 * (`items[].case_number`). Fields of a union's object arms are listed once each, as not always present.
 */
export function fieldRows(schema: JsonSchema, defs: JsonSchema = {}, prefix = '', depth = 0): FieldRow[] {
  const rows: FieldRow[] = [];
  const seen = new Set<string>();
  const objectArms = arms(schema, defs).filter((a) => isObject(a.properties));
  for (const obj of objectArms) {
    const required = new Set(Array.isArray(obj.required) ? (obj.required as string[]) : []);
    for (const [name, raw] of Object.entries(obj.properties as JsonSchema)) {
      if (!isObject(raw)) continue;
      const path = `${prefix}${name}`;
      if (seen.has(path)) continue;
      seen.add(path);
      rows.push({
        path,
        type: typeText(raw, defs),
        required: objectArms.length === 1 && required.has(name),
        bounds: boundsText(raw, defs),
        description: descriptionOf(raw, defs),
      });
      if (depth >= 8) continue;
      for (const a of arms(raw, defs)) {
        if (isObject(a.properties)) rows.push(...fieldRows(a, defs, `${path}.`, depth + 1));
        if (a.type === 'array' && isObject(a.items))
          rows.push(...fieldRows(a.items, defs, `${path}[].`, depth + 1));
      }
    }
  }
  // A nested path reached through two arms is listed once.
  const unique = new Map<string, FieldRow>();
  for (const row of rows) if (!unique.has(row.path)) unique.set(row.path, row);
  return [...unique.values()];
}

/** The output as documented: zod's JSON Schema of the output side, with descriptions and `required`. */
export function outputJsonSchema(def: AnyTool): JsonSchema {
  return z.toJSONSchema(def.output as z.ZodType, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
}
