// The registry refuses every contract rule it enforces (naming the tool and the rule), accepts the real
// catalogue, and derives what tools/list shows: annotations, a closed input schema, the envelope around the
// tool's own output schema, a stable order.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { type AnyTool, defineTool } from '../../src/contract/define.ts';
import { advertisedEnvelope } from '../../src/contract/envelope.ts';
import { offsetPages, pagedOutput } from '../../src/contract/limits.ts';
import { toolVerbs } from '../../src/contract/naming.ts';
import { buildRegistry, checkTools, deriveAnnotations, RegistryError } from '../../src/contract/registry.ts';
import { advertisedSchema, untypedPaths } from '../../src/contract/schema.ts';

const DESCRIPTION = 'A fixture tool used by the registry tests; long enough to count as written for a model.';
const run = async () => ({});
const output = z.object({});

const read = (name: string, input: AnyTool['input'] = {}, extra: Partial<AnyTool> = {}): AnyTool =>
  defineTool({ name, description: DESCRIPTION, input, output, mutates: false, run, ...extra });
const write = (name: string, input: AnyTool['input'] = {}, extra: Partial<AnyTool> = {}): AnyTool =>
  defineTool({
    name,
    description: DESCRIPTION,
    input,
    output,
    mutates: 'write',
    idempotencyKey: { describe: 'k', of: () => 'k' },
    run,
    ...extra,
  });
/** A list tool as the kernel wants it: pages declared, paged output. */
const paged = { pages: offsetPages(100), output: pagedOutput(z.object({ id: z.string() })) };
const text = z.string().max(10).describe('Some text');

/** Builds the registry and returns its refusal, failing if it was accepted. */
function refusal(defs: AnyTool[]): RegistryError {
  try {
    buildRegistry(defs);
  } catch (e) {
    if (e instanceof RegistryError) return e;
    throw e;
  }
  throw new Error('the registry accepted tools that break the contract');
}

/** Expects exactly the listed (tool, rule) problems, with a problem text matching each pattern. */
function expectProblems(defs: AnyTool[], expected: [string, string, RegExp][]) {
  const e = refusal(defs);
  expect(e.problems.map((p) => [p.tool, p.rule])).toEqual(expected.map(([tool, rule]) => [tool, rule]));
  for (const [i, [tool, rule, pattern]] of expected.entries()) {
    expect(e.problems[i]?.problem).toMatch(pattern);
    // The thrown message names the tool and the rule, so a failed start-up says what to fix.
    expect(e.message).toContain(`${tool} [${rule}]`);
  }
}

describe('registry: C2 names', () => {
  it('refuses names that break the pattern', () => {
    for (const name of [
      'Case_get',
      'ca',
      'case-get',
      '1case_get',
      'case get',
      `case_${'x'.repeat(60)}_get`,
    ]) {
      expectProblems([read(name)], [[name, 'C2', /must match/]]);
    }
    expectProblems([read('case__get')], [['case__get', 'C2', /empty segment/]]);
  });

  it('refuses a last segment that is not a verb from the closed list', () => {
    expectProblems([read('case_fetch')], [['case_fetch', 'C2', /closed list.*not "fetch"/]]);
    expectProblems([read('case_get_all')], [['case_get_all', 'C2', /not "all"/]]);
    expectProblems([read('precedent_search_library')], [['precedent_search_library', 'C2', /not "library"/]]);
    expectProblems([read('caseget')], [['caseget', 'C2', /<family>_\[<object>_\]<verb>/]]);
  });

  it('keeps the two seed families: search_<corpus> and hai_<verb>[_<object>]', () => {
    const searchInput = { query: text };
    expect(() =>
      buildRegistry([read('search_case', searchInput, paged), read('hai_status'), read('hai_get_next_step')]),
    ).not.toThrow();
    expectProblems(
      [read('search_case_documents', searchInput, paged)],
      [['search_case_documents', 'C2', /search_<corpus>/]],
    );
  });

  it('refuses a name registered twice', () => {
    expectProblems([read('case_get'), read('case_get')], [['case_get', 'C2', /registered twice/]]);
  });

  it('accepts every verb of the closed list', () => {
    const defs = toolVerbs.map((verb) =>
      verb === 'list' ? read(`thing_${verb}`, {}, paged) : read(`thing_${verb}`),
    );
    const extract = defs.find((d) => d.name === 'thing_extract');
    if (extract) extract.readCounterpart = 'thing_list';
    expect(checkTools(defs)).toEqual([]);
  });
});

describe('registry: C3 ambiguous parameters', () => {
  it('refuses a parameter that accepts a string and a container, or anything', () => {
    const cases: [string, z.ZodType][] = [
      ['union', z.union([z.string(), z.array(z.string())])],
      ['union_object', z.union([z.string(), z.object({ a: z.number() })])],
      ['any', z.any()],
      ['unknown', z.unknown()],
      ['json', z.json()],
    ];
    for (const [param, schema] of cases) {
      const tool = 'thing_get';
      // A schema of anything is also refused for what it advertises: a client cannot tell what to send.
      const untyped = param === 'any' || param === 'unknown';
      expectProblems(
        [read(tool, { [param]: schema.describe('ambiguous') })],
        [
          [tool, 'C3', new RegExp(`"${param}"`)],
          ...(untyped ? [[tool, 'docs', /accepts any value/] as [string, string, RegExp]] : []),
        ],
      );
    }
    expect(refusal([read('thing_get', { v: z.any().describe('x') })]).problems[0]?.problem).toMatch(
      /any JSON value/,
    );
    expect(
      refusal([read('thing_get', { v: z.union([z.string(), z.array(z.string())]).describe('x') })])
        .problems[0]?.problem,
    ).toMatch(/string and a container/);
  });

  it('accepts a string with null, a number, or an enum', () => {
    expect(
      checkTools([
        read('thing_get', {
          a: z.string().nullable().optional().describe('text or null'),
          b: z.union([z.string(), z.number()]).describe('text or number'),
          c: z.enum(['x', 'y']).describe('enum'),
        }),
      ]),
    ).toEqual([]);
  });

  it('refuses a container of anything: a client cannot tell what to send there', () => {
    expectProblems(
      [read('thing_get', { e: z.record(z.string(), z.unknown()).describe('any values') })],
      [['thing_get', 'docs', /input at \.e\.additionalProperties accepts any value/]],
    );
  });
});

describe('registry: C4, C5, C6, C7 and descriptions', () => {
  it('C4: refuses a mutating tool without an idempotencyKey (and a read-only one with a key)', () => {
    const keyless = defineTool({
      name: 'thing_create',
      description: DESCRIPTION,
      input: {},
      output,
      mutates: 'write',
      run,
    });
    expectProblems([keyless], [['thing_create', 'C4', /no idempotencyKey/]]);
    const destructive = defineTool({
      name: 'thing_delete',
      description: DESCRIPTION,
      input: {},
      output,
      mutates: 'destructive',
      run,
    });
    expectProblems([destructive], [['thing_delete', 'C4', /no idempotencyKey/]]);
    expectProblems(
      [read('thing_get', {}, { idempotencyKey: { describe: 'k', of: () => 'k' } })],
      [['thing_get', 'C4', /read-only/]],
    );
    expectProblems(
      [write('thing_create', {}, { idempotencyKey: { describe: ' ', of: () => 'k' } })],
      [['thing_create', 'C4', /say in words/]],
    );
  });

  it('C5: refuses an *_extract tool without a registered, read-only counterpart', () => {
    const extract = (counterpart?: string) =>
      write('claim_extract', {}, counterpart === undefined ? {} : { readCounterpart: counterpart });
    const list = read('claim_list', {}, paged);
    expectProblems([extract(), list], [['claim_extract', 'C5', /names no registered read counterpart/]]);
    expectProblems([extract('claim_get'), list], [['claim_extract', 'C5', /"claim_get" is not registered/]]);
    expectProblems(
      [extract('claim_record'), list, write('claim_record')],
      [['claim_extract', 'C5', /"claim_record" is not read-only/]],
    );
    expect(checkTools([extract('claim_list'), list])).toEqual([]);
  });

  it('C6: refuses a *_list or search_* tool that does not declare pages, and a wrong paging tool', () => {
    expectProblems([read('thing_list')], [['thing_list', 'C6', /does not declare pages/]]);
    expectProblems(
      [read('search_style', { query: text })],
      [['search_style', 'C6', /does not declare pages/]],
    );
    expectProblems(
      [read('thing_list', {}, { pages: paged.pages })],
      [['thing_list', 'C6', /output must be pagedOutput/]],
    );
    expectProblems(
      [read('thing_list', { limit: z.int().optional().describe('mine') }, paged)],
      [['thing_list', 'C6', /declares "limit" itself/]],
    );
    expectProblems([write('thing_list', {}, paged)], [['thing_list', 'C6', /declares pages but mutates/]]);
    expect(checkTools([read('thing_list', {}, paged)])).toEqual([]);
  });

  it('C6: refuses an unbounded array anywhere in an output, and a paging tool is bounded by the kernel', () => {
    expectProblems(
      [read('thing_get', {}, { output: z.object({ ids: z.array(z.string()) }) })],
      [['thing_get', 'C6', /output array ids has no bound/]],
    );
    expectProblems(
      [
        read(
          'thing_get',
          {},
          { output: z.object({ a: z.object({ b: z.array(z.object({ c: z.array(z.int()) })).max(3) }) }) },
        ),
      ],
      [['thing_get', 'C6', /output array a\.b\[\]\.c has no bound/]],
    );
    const advertised = buildRegistry([read('thing_list', {}, paged)]).get('thing_list')?.listing.outputSchema;
    expect(JSON.stringify(advertised)).toContain('"maxItems":200');
  });

  it('C1: refuses a tool without an object output, or an output that accepts anything', () => {
    expectProblems(
      [read('thing_get', {}, { output: z.array(z.string()).max(3) })],
      [['thing_get', 'C1', /must be a zod object/]],
    );
    expectProblems(
      [read('thing_get', {}, { output: z.object({ blob: z.unknown() }) })],
      [['thing_get', 'C1', /output at \.blob accepts any value/]],
    );
  });

  it('C7: refuses an owner gate on a read-only tool', () => {
    expectProblems(
      [read('thing_get', {}, { ownerGate: true })],
      [['thing_get', 'C7', /owner-gated but read-only/]],
    );
  });

  it('refuses a parameter without .describe() and a description too short for a model', () => {
    expectProblems(
      [read('thing_get', { id: z.string() })],
      [['thing_get', 'docs', /"id" has no \.describe\(\)/]],
    );
    expectProblems(
      [read('thing_get', { id: z.string().optional() })],
      [['thing_get', 'docs', /"id" has no \.describe\(\)/]],
    );
    expectProblems(
      [read('thing_get', {}, { description: 'Gets a thing.' })],
      [['thing_get', 'docs', /40\+ characters/]],
    );
  });

  it('reports every problem of every tool at once', () => {
    const e = refusal([
      read('Bad'),
      defineTool({
        name: 'thing_create',
        description: 'short',
        input: { v: z.any() },
        output,
        mutates: 'write',
        run,
      }),
    ]);
    expect(e.problems.map((p) => `${p.tool}:${p.rule}`).sort()).toEqual(
      [
        'Bad:C2',
        'thing_create:C3',
        'thing_create:C4',
        'thing_create:docs',
        'thing_create:docs',
        'thing_create:docs',
      ].sort(),
    );
  });
});

describe('registry: the real catalogue', () => {
  const registry = buildRegistry(tools);

  it('passes every check', () => {
    expect(checkTools(tools)).toEqual([]);
    expect(registry.tools).toHaveLength(tools.length);
  });

  it('lists tools in a stable order sorted by name, whatever the input order', () => {
    const names = registry.tools.map((t) => t.def.name);
    expect(names).toEqual([...names].sort());
    expect(buildRegistry([...tools].reverse()).tools.map((t) => t.def.name)).toEqual(names);
    expect(registry.get('case_get')?.def.name).toBe('case_get');
    expect(registry.get('case_nope')).toBeUndefined();
  });

  it('derives the annotations from the definition', () => {
    const annotations = Object.fromEntries(registry.tools.map((t) => [t.def.name, t.listing.annotations]));
    // A reader declares only what means something for it; a writer says whether it destroys, and is idempotent.
    const reader = { readOnlyHint: true, openWorldHint: false };
    const writer = { idempotentHint: true, openWorldHint: false };
    expect(annotations.case_get).toEqual(reader);
    expect(annotations.case_list).toEqual(reader);
    expect(annotations.case_final_text_get).toEqual(reader);
    expect(annotations.case_create).toEqual({ ...writer, destructiveHint: false });
    expect(annotations.case_update).toEqual({ ...writer, destructiveHint: false });
    expect(annotations.case_delete).toEqual({ ...writer, destructiveHint: true });
    for (const t of registry.tools) {
      expect(t.listing.annotations).toEqual(deriveAnnotations(t.def));
      // The title is the listing's own field, not repeated in the annotations.
      expect(t.listing.title).toBe(t.def.title);
      expect('title' in t.listing.annotations).toBe(false);
    }
  });

  it('advertises closed input schemas, the envelope around the tool’s output, gate and paging parameters', () => {
    for (const t of registry.tools) {
      expect(t.listing.inputSchema.type).toBe('object');
      expect(t.listing.inputSchema.additionalProperties, t.def.name).toBe(false);
      expect(t.listing.inputSchema.$schema).toBeUndefined();
      expect(t.listing.outputSchema).toEqual(advertisedEnvelope(advertisedSchema(t.def.output, 'output')));
      const pagingParams = ['limit', 'cursor'].filter(
        (p) => p in (t.listing.inputSchema.properties as object),
      );
      expect(pagingParams, t.def.name).toEqual(t.def.pages ? ['limit', 'cursor'] : []);
      const props = t.listing.inputSchema.properties as Record<string, unknown>;
      expect(Object.keys(props).includes('owner_ack'), t.def.name).toBe(Boolean(t.def.ownerGate));
      expect(Object.keys(props).includes('reason'), t.def.name).toBe(
        Boolean(t.def.ownerGate) || 'reason' in t.def.input,
      );
      expect(Object.keys(props).includes('approval_id'), t.def.name).toBe('approval_id' in t.def.input);
      expect(t.gate, t.def.name).toBe(t.def.ownerGate ? 'ack' : null);
    }
    expect(registry.get('case_delete')?.listing.inputSchema.required).toEqual(['case_id']);
    expect(registry.get('case_create')?.listing.inputSchema.required).toEqual(['case_number', 'title']);
  });

  it('in approval mode, gated tools take approval_id and the agent’s reason instead of owner_ack', () => {
    const approval = buildRegistry(tools, { ownerGate: 'approval' });
    for (const t of approval.tools) {
      const props = t.listing.inputSchema.properties as Record<string, { description?: string }>;
      const gated = Boolean(t.def.ownerGate);
      expect('owner_ack' in props, t.def.name).toBe(false);
      expect('approval_id' in props, t.def.name).toBe(gated || 'approval_id' in t.def.input);
      expect(t.gate, t.def.name).toBe(gated ? 'approval' : null);
      if (gated) expect(props.reason?.description).toBe('Why you ask (the owner reads it)');
    }
    // The listing costs no more than ack mode's: the per-tool size bar holds in either mode.
    const bytes = (r: typeof registry) => JSON.stringify(r.tools.map((t) => t.listing)).length;
    expect(bytes(approval)).toBeLessThanOrEqual(bytes(registry));
  });
});

describe('registry: advertised schemas carry no noise', () => {
  const registry = buildRegistry(tools);
  const all = JSON.stringify(registry.tools.map((t) => t.listing));

  it('has no regex restating a format, no ±2^53 bounds, no type arrays and no schema of anything', () => {
    expect(all).not.toContain('"pattern":"^([0-9a-fA-F]{8}');
    expect(all).not.toContain('9007199254740991');
    expect(all).not.toMatch(/"type":\[/);
    for (const t of registry.tools) {
      expect(untypedPaths(t.listing.inputSchema), t.def.name).toEqual([]);
      expect(untypedPaths(t.listing.outputSchema), t.def.name).toEqual([]);
    }
  });

  it('advertises an id as a uuid-formatted string, and a limit without contradicting its description', () => {
    const props = registry.get('case_list')?.listing.inputSchema.properties as Record<string, unknown>;
    expect(props.limit).toEqual({
      type: 'integer',
      description: expect.stringMatching(/clamped to 1\.\.200/),
    });
    const get = registry.get('case_get')?.listing.inputSchema.properties as Record<string, unknown>;
    expect(get.case_id).toMatchObject({ type: 'string', format: 'uuid' });
  });
});
