import * as z from 'zod';
import { ambiguity, type DecodePlan, planDecoding } from './decode.ts';
import type { AnyTool } from './define.ts';
import { advertisedEnvelope } from './envelope.ts';
import { type OwnerGateMode, ownerGateInput } from './gates.ts';
import { pageParams } from './limits.ts';
import { familyOf, nameProblem, verbOf } from './naming.ts';
import { advertisedSchema, type JsonSchema, outputSchemas, unboundedArrays, untypedPaths } from './schema.ts';

/**
 * MCP annotations, declared where the protocol's defaults (not read-only, destructive, not idempotent, open
 * world) would be wrong: a reader says read-only and closed world (destructive and idempotent mean nothing
 * for it); a writer says whether it destroys, that it is idempotent, and closed world.
 */
export type ToolAnnotations =
  | { readOnlyHint: true; openWorldHint: false }
  | { destructiveHint: boolean; idempotentHint: true; openWorldHint: false };

/** The tool as `tools/list` shows it. */
export interface ToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

export interface RegisteredTool {
  def: AnyTool;
  plan: DecodePlan;
  listing: ToolListing;
  /** How this tool's owner gate opens (the registry's mode), or null for a tool without a gate. */
  gate: OwnerGateMode | null;
}

export interface RegistryProblem {
  tool: string;
  rule: 'C1' | 'C2' | 'C3' | 'C4' | 'C5' | 'C6' | 'C7' | 'C8' | 'docs';
  problem: string;
}

export class RegistryError extends Error {
  readonly problems: RegistryProblem[];
  constructor(problems: RegistryProblem[]) {
    super(
      `The tool registry breaks the contract:\n${problems.map((p) => `  ${p.tool} [${p.rule}] ${p.problem}`).join('\n')}`,
    );
    this.name = 'RegistryError';
    this.problems = problems;
  }
}

export interface Registry {
  /** Sorted by name: the stable order of tools/list. */
  readonly tools: readonly RegisteredTool[];
  get(name: string): RegisteredTool | undefined;
}

export interface RegistryOptions {
  /** How owner gates open (OWNER_GATE); it decides the gate parameters gated tools advertise. Default 'ack'. */
  ownerGate?: OwnerGateMode;
  /**
   * JSON Schemas already derived from these very definitions (an earlier start of the same build), by key;
   * what is missing is derived and set. The checks run on them all the same.
   */
  schemas?: SchemaMemo;
}

/**
 * The JSON Schemas the registry derives from the tools' zod schemas, by tool and side: converting them is most
 * of the registry's build. Only valid for the same definitions (the Node entry keys its file by the bundle).
 */
export interface SchemaMemo {
  get(key: string): JsonSchema | undefined;
  set(key: string, schema: JsonSchema): void;
}

/** `derive()`, or the memo's copy of it. */
function memoised(memo: SchemaMemo | undefined, key: string, derive: () => JsonSchema): JsonSchema {
  const known = memo?.get(key);
  if (known !== undefined) return known;
  const schema = derive();
  memo?.set(key, schema);
  return schema;
}

const isListing = (name: string) => verbOf(name) === 'list' || familyOf(name) === 'search';

/** Annotations come from the definition, never written by hand (docs/contract.md "Declared behaviour"). */
export const deriveAnnotations = (def: AnyTool): ToolAnnotations =>
  def.mutates === false
    ? { readOnlyHint: true, openWorldHint: false }
    : {
        destructiveHint: def.mutates === 'destructive',
        idempotentHint: true,
        openWorldHint: false,
      };

/** The parameters as the client sees them: the tool's own, plus the kernel's gate and paging fields. */
function inputObject(def: AnyTool, mode: OwnerGateMode): z.ZodObject<z.ZodRawShape> {
  return z.object({
    ...def.input,
    ...(def.ownerGate ? ownerGateInput[mode] : {}),
    ...(def.pages ? pageParams : {}),
  });
}

/** The output, whole (for the checks) and as advertised, or why it cannot be. */
function outputSchema(
  def: AnyTool,
  memo: SchemaMemo | undefined,
): { full: JsonSchema; advertised: JsonSchema } | string {
  const output = def.output;
  if (!(output instanceof z.ZodObject)) return 'output must be a zod object (the envelope’s data)';
  try {
    const both = memoised(memo, `${def.name} output`, () => outputSchemas(output));
    return both as { full: JsonSchema; advertised: JsonSchema };
  } catch (e) {
    return `its output schema cannot be expressed as JSON Schema: ${String(e)}`;
  }
}

/** Every rule the registry enforces, for all tools at once; empty when the registry is sound. */
export function checkTools(defs: readonly AnyTool[], options: RegistryOptions = {}): RegistryProblem[] {
  return checkAndPlan(defs, options.ownerGate ?? 'ack', options.schemas).problems;
}

/** The checks, keeping each tool's decode plan (JSON Schema conversion is most of start-up's work). */
function checkAndPlan(
  defs: readonly AnyTool[],
  mode: OwnerGateMode,
  memo?: SchemaMemo,
): {
  problems: RegistryProblem[];
  plans: Map<string, DecodePlan>;
  outputs: Map<string, JsonSchema>;
} {
  const problems: RegistryProblem[] = [];
  const plans = new Map<string, DecodePlan>();
  const outputs = new Map<string, JsonSchema>();
  const names = new Set<string>();
  for (const def of defs) {
    const tool = def.name;
    if (names.has(tool)) problems.push({ tool, rule: 'C2', problem: 'is registered twice' });
    names.add(tool);
    const nameIssue = nameProblem(tool);
    if (nameIssue !== null) problems.push({ tool, rule: 'C2', problem: nameIssue });
    if (def.description.trim().length < 40) {
      problems.push({
        tool,
        rule: 'docs',
        problem: 'needs a description written for a model (40+ characters)',
      });
    }
    let plan: DecodePlan | undefined;
    try {
      const input = inputObject(def, mode);
      plan = planDecoding(
        input,
        memoised(memo, `${tool} input ${mode}`, () => advertisedSchema(input, 'input')),
      );
      plans.set(tool, plan);
    } catch (e) {
      problems.push({
        tool,
        rule: 'C3',
        problem: `its input schema cannot be expressed as JSON Schema: ${String(e)}`,
      });
    }
    const properties = (plan?.jsonSchema.properties ?? {}) as Record<string, { description?: unknown }>;
    for (const param of Object.keys(def.input)) {
      // What a model sees is the advertised JSON Schema, so that is where the description must be.
      if (typeof properties[param]?.description !== 'string') {
        problems.push({ tool, rule: 'docs', problem: `parameter "${param}" has no .describe()` });
      }
    }
    for (const param of plan?.params.values() ?? []) {
      const why = ambiguity(param.types);
      if (why !== null) problems.push({ tool, rule: 'C3', problem: `parameter "${param.name}" ${why}` });
    }
    if (def.mutates !== false && def.idempotencyKey === undefined) {
      problems.push({ tool, rule: 'C4', problem: 'mutates state but declares no idempotencyKey' });
    }
    if (def.idempotencyKey !== undefined && def.idempotencyKey.describe.trim() === '') {
      problems.push({
        tool,
        rule: 'C4',
        problem: 'idempotencyKey.describe must say in words what the key is',
      });
    }
    if (def.mutates === false && def.idempotencyKey !== undefined) {
      problems.push({ tool, rule: 'C4', problem: 'is read-only but declares an idempotencyKey' });
    }
    if (def.ownerGate && def.mutates === false) {
      problems.push({
        tool,
        rule: 'C7',
        problem: 'is owner-gated but read-only; gates guard consequential changes',
      });
    }
    for (const path of plan === undefined ? [] : untypedPaths(plan.jsonSchema)) {
      problems.push({ tool, rule: 'docs', problem: `input at ${path} accepts any value; declare its type` });
    }
    const output = outputSchema(def, memo);
    if (typeof output === 'string') {
      problems.push({ tool, rule: 'C1', problem: output });
    } else {
      outputs.set(tool, output.advertised);
      for (const path of untypedPaths(output.full)) {
        problems.push({ tool, rule: 'C1', problem: `output at ${path} accepts any value; declare its type` });
      }
      for (const path of unboundedArrays(output.full)) {
        problems.push({
          tool,
          rule: 'C6',
          problem: `output array ${path} has no bound: add .max(), or declare pages for a list`,
        });
      }
    }
    if (isListing(tool) && def.pages === undefined) {
      problems.push({ tool, rule: 'C6', problem: 'lists or searches but does not declare pages' });
    }
    if (def.pages !== undefined) {
      const shape = def.output instanceof z.ZodObject ? (def.output.shape as Record<string, unknown>) : {};
      if (!['items', 'limit', 'next_cursor'].every((k) => k in shape)) {
        problems.push({
          tool,
          rule: 'C6',
          problem: 'declares pages, so its output must be pagedOutput(...)',
        });
      }
      if (def.mutates !== false) {
        problems.push({ tool, rule: 'C6', problem: 'declares pages but mutates; a page is a read' });
      }
      for (const name of Object.keys(pageParams)) {
        if (name in def.input)
          problems.push({ tool, rule: 'C6', problem: `declares "${name}" itself; the kernel adds it` });
      }
    }
  }
  for (const def of defs) {
    if (verbOf(def.name) !== 'extract') continue;
    const counterpart = def.readCounterpart;
    const read = defs.find((d) => d.name === counterpart);
    if (counterpart === undefined || read === undefined) {
      problems.push({
        tool: def.name,
        rule: 'C5',
        problem: `extracts but names no registered read counterpart${counterpart ? ` ("${counterpart}" is not registered)` : ''}`,
      });
    } else if (read.mutates !== false) {
      problems.push({
        tool: def.name,
        rule: 'C5',
        problem: `its read counterpart "${counterpart}" is not read-only`,
      });
    }
  }
  return { problems, plans, outputs };
}

/** Builds the registry, refusing it (naming each tool and rule) when any tool breaks the contract. */
export function buildRegistry(defs: readonly AnyTool[], options: RegistryOptions = {}): Registry {
  const mode = options.ownerGate ?? 'ack';
  const { problems, plans, outputs } = checkAndPlan(defs, mode, options.schemas);
  if (problems.length > 0) throw new RegistryError(problems);
  const tools = [...defs]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((def): RegisteredTool => {
      const plan = plans.get(def.name) ?? planDecoding(inputObject(def, mode));
      return {
        def,
        plan,
        gate: def.ownerGate ? mode : null,
        listing: {
          name: def.name,
          ...(def.title === undefined ? {} : { title: def.title }),
          description: def.description,
          inputSchema: plan.jsonSchema,
          outputSchema: advertisedEnvelope(outputs.get(def.name) ?? { type: 'object' }),
          annotations: deriveAnnotations(def),
        },
      };
    });
  const byName = new Map(tools.map((t) => [t.def.name, t]));
  return { tools, get: (name) => byName.get(name) };
}
