// Arguments derived from a tool's advertised input schema (its JSON Schema in tools/list), for the suites that
// walk the whole registry: the reachability walk, the secrets walk and the fuzzer. A value fits its schema
// (type, enum, pattern, bounds, format) where the schema says enough; ids come from the caller's world.
import type { AnyTool } from '../../src/contract/define.ts';
import { buildRegistry, type RegisteredTool, type Registry } from '../../src/contract/registry.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  additionalProperties?: boolean;
}

/** The input schema a tool advertises. */
export const inputSchemaOf = (tool: RegisteredTool): JsonSchema => tool.listing.inputSchema as JsonSchema;

/** The registry as served: every tool of `tools`, with the gate parameters of `ownerGate`. */
export const registryOf = (tools: readonly AnyTool[], ownerGate: 'ack' | 'approval' = 'ack'): Registry =>
  buildRegistry(tools, { ownerGate });

/** A parameter that names an object by id (the reachability rule's subject): `case_id`, `into_claim_id`… */
export const isIdParameter = (name: string) => /(^|_)id$/.test(name);

/** Candidate strings for a `pattern`: the first that matches is used. */
const PATTERN_CANDIDATES = ['a1', 'a', 'A1', 'erer-1', '1', 'a.b', 'x_1', 'a:b'];

/** Values per parameter name where the schema alone cannot say what works (a date ahead, a real enum). */
export type Overrides = Readonly<Record<string, unknown>>;

function scalarType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type !== undefined) return schema.type;
  return schema.anyOf?.map(scalarType).find((t) => t !== undefined && t !== 'null');
}

/** A value that fits `schema` (best effort), for the parameter `name`. */
export function sampleValue(schema: JsonSchema, name: string, overrides: Overrides = {}): unknown {
  if (name in overrides) return overrides[name];
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  switch (scalarType(schema)) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1;
      const max = schema.maximum ?? (schema.exclusiveMaximum ?? Number.MAX_SAFE_INTEGER) - 1;
      return Math.min(Math.max(1, min), max);
    }
    case 'boolean':
      return false;
    case 'array': {
      const n = Math.max(1, schema.minItems ?? 0);
      return Array.from({ length: n }, () => sampleValue(schema.items ?? {}, `${name}[]`, overrides));
    }
    case 'object':
      return sampleObject(schema, overrides, true);
    default:
      return 'x';
  }
}

function sampleString(schema: JsonSchema): string {
  switch (schema.format) {
    case 'uuid':
      return crypto.randomUUID();
    case 'date-time':
      return new Date(Date.now() + 7 * 86_400_000).toISOString();
    case 'date':
      return '2024-03-01';
    case 'email':
      return 'a@example.com';
    case 'uri':
      return 'https://example.com/';
  }
  if (schema.pattern !== undefined) {
    const re = new RegExp(schema.pattern, 'u');
    const fit = PATTERN_CANDIDATES.find((c) => re.test(c));
    if (fit !== undefined) return fit;
  }
  const text = 'בדיקה test';
  return text.slice(
    0,
    Math.max(schema.minLength ?? 1, Math.min(text.length, schema.maxLength ?? text.length)),
  );
}

/** An object of `schema`: its required properties, and with `all` every declared property. */
export function sampleObject(
  schema: JsonSchema,
  overrides: Overrides = {},
  all = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (all || required.has(name) || name in overrides) out[name] = sampleValue(prop, name, overrides);
  }
  return out;
}

/**
 * Arguments for `tool`: the required parameters (from `overrides`, else `fill`, else sampled), the optional
 * ones `overrides` names (undefined leaves one out), and nothing of the kernel's paging unless asked.
 */
export function sampleArgs(
  tool: RegisteredTool,
  overrides: Overrides = {},
  fill: Overrides = {},
): Record<string, unknown> {
  const schema = inputSchemaOf(tool);
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (name in overrides) {
      if (overrides[name] !== undefined) out[name] = overrides[name];
    } else if (required.has(name)) {
      out[name] = sampleValue(prop, name, fill);
    }
  }
  return out;
}
