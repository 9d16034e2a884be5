// C3 through the official client on both eras: arguments arrive as sent. Strings stay strings, JSON
// text is parsed only for non-string parameters, "020" is no integer, unknown names are refused.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import type { Envelope, ErrorEnvelope } from '../../src/contract/envelope.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

// A read-only echo of non-string parameters, to see what the tool receives after decoding.
const probe_echo_get = defineTool({
  name: 'probe_echo_get',
  description: 'Test fixture: echoes its decoded arguments with their JSON types, to check C3 decoding.',
  input: {
    tags: z.array(z.string().max(50)).max(20).describe('A list of short strings'),
    filters: z.object({ year: z.number().int().optional() }).strict().optional().describe('An object'),
    strict: z.boolean().optional().describe('A boolean'),
  },
  output: z.object({
    tags: z.array(z.string()).max(20),
    filters: z.object({ year: z.int().optional() }).nullable(),
    strict: z.boolean().nullable(),
    kinds: z.object({ tags: z.string(), strict: z.string() }),
  }),
  mutates: false,
  async run({ input }) {
    return {
      tags: input.tags,
      filters: input.filters ?? null,
      strict: input.strict ?? null,
      kinds: { tags: Array.isArray(input.tags) ? 'array' : typeof input.tags, strict: typeof input.strict },
    };
  },
});

const envelopeOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  result.structuredContent as unknown as Envelope;

function expectInvalid(env: Envelope): ErrorEnvelope {
  if (env.ok) throw new Error(`expected invalid_args, got ${JSON.stringify(env)}`);
  expect(env.error.code).toBe('invalid_args');
  return env;
}

describe('C3 arguments arrive as sent', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ tools: [...tools, probe_echo_get], grants: { ceo: ['probe_echo_get'] } });
  });
  afterAll(async () => s?.close());

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    let client: Client;
    beforeAll(async () => {
      client = await s.connect('ceo', { era });
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      envelopeOf(await client.callTool({ name, arguments: args }));

    it.each([
      ['the string "null"', 'null'],
      ['a JSON-looking list', '[1, 2]'],
      ['a JSON-looking object', '{"a": 1}'],
      ['a JSON number', '42'],
      ['a JSON boolean', 'true'],
    ])('%s reaches a string parameter unchanged and reads back as the same string', async (_, title) => {
      const number = `ARG-${era}-${title}`;
      const created = expectOk<{ case: { id: string; title: unknown } }>(
        await call('case_create', { case_number: number, title }),
      );
      expect(created.case.title).toBe(title);
      const got = expectOk<{ case: { title: unknown; case_number: unknown } }>(
        await call('case_get', { case_id: created.case.id }),
      );
      expect(got.case.title).toBe(title);
      expect(got.case.case_number).toBe(number);
      const row = await s.db.db.query.cases.findFirst({ where: (c, { eq }) => eq(c.caseNumber, number) });
      expect(row?.title).toBe(title);
    });

    it('a list sent as JSON text is parsed once for a list parameter; a real list works too', async () => {
      const asText = expectOk<{ tags: unknown; kinds: { tags: string } }>(
        await call('probe_echo_get', { tags: '["ערר", "null", "[1, 2]"]' }),
      );
      // Parsed once: the strings inside the list stay strings, even the JSON-looking ones.
      expect(asText.tags).toEqual(['ערר', 'null', '[1, 2]']);
      expect(asText.kinds.tags).toBe('array');
      const asList = expectOk<{ tags: unknown }>(await call('probe_echo_get', { tags: ['a', 'b'] }));
      expect(asList.tags).toEqual(['a', 'b']);
    });

    it('objects and booleans also accept JSON text of the right type', async () => {
      const data = expectOk<{ filters: unknown; strict: unknown; kinds: { strict: string } }>(
        await call('probe_echo_get', { tags: [], filters: '{"year": 2025}', strict: 'false' }),
      );
      expect(data.filters).toEqual({ year: 2025 });
      expect(data.strict).toBe(false);
      expect(data.kinds.strict).toBe('boolean');
    });

    it('JSON text of the wrong type, or text that is not JSON, is invalid_args naming the parameter', async () => {
      for (const tags of ['"a"', 'a, b', '{"a": 1}', '']) {
        const env = expectInvalid(await call('probe_echo_get', { tags }));
        expect(JSON.stringify(env.error.details)).toContain('tags');
      }
      expectInvalid(await call('probe_echo_get', { tags: [], strict: 'yes' }));
    });

    it('"020" is not the integer 20 for case_list limit; "20" and 20 are', async () => {
      const env = expectInvalid(await call('case_list', { limit: '020' }));
      expect(env.error.details).toMatchObject({ issues: [expect.objectContaining({ path: 'limit' })] });
      expect(expectOk<{ limit: number }>(await call('case_list', { limit: '20' })).limit).toBe(20);
      expect(expectOk<{ limit: number }>(await call('case_list', { limit: 20 })).limit).toBe(20);
      expectInvalid(await call('case_list', { limit: 2.5 }));
      expectInvalid(await call('case_list', { limit: '2.5' }));
      expectInvalid(await call('case_list', { limit: 'twenty' }));
    });

    it('a misspelled argument is refused with the nearest declared name, and nothing is written', async () => {
      const number = `ARG-${era}-typo`;
      const env = expectInvalid(await call('case_create', { case_number: number, titel: 'כותרת' }));
      expect(env.error.message).toContain('"titel"');
      expect(env.error.message).toContain('did you mean "title"');
      expect(env.error.details).toMatchObject({
        unknown_arguments: [{ name: 'titel', did_you_mean: 'title' }],
        parameters: expect.arrayContaining(['case_number', 'title']),
      });
      const row = await s.db.db.query.cases.findFirst({ where: (c, { eq }) => eq(c.caseNumber, number) });
      expect(row).toBeUndefined();
      // A name with no near neighbour is still refused, just without a suggestion.
      const far = expectInvalid(await call('case_list', { zzzzzzzzzz: 1 }));
      expect(far.error.details).toMatchObject({ unknown_arguments: [{ name: 'zzzzzzzzzz' }] });
      expect(JSON.stringify(far.error.details)).not.toContain('did_you_mean');
    });

    it('JSON null for an optional parameter means "not given"', async () => {
      const data = expectOk<{ case: { appellant: unknown; notes: unknown } }>(
        await call('case_create', {
          case_number: `ARG-${era}-nulls`,
          title: 't',
          appellant: null,
          notes: null,
        }),
      );
      expect(data.case.appellant).toBeNull();
      expect(data.case.notes).toBeNull();
      expectOk(await call('case_list', { limit: null, cursor: null }));
    });

    it('every advertised inputSchema is an object with additionalProperties: false', async () => {
      const { tools: listed } = await client.listTools();
      expect(listed.length).toBeGreaterThan(0);
      for (const tool of listed) {
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      }
      const echo = listed.find((t) => t.name === 'probe_echo_get');
      const props = echo?.inputSchema.properties as Record<string, { type?: unknown }> | undefined;
      expect(props?.tags?.type).toBe('array');
      const create = listed.find((t) => t.name === 'case_create');
      expect(create?.inputSchema.required).toEqual(expect.arrayContaining(['case_number', 'title']));
    });
  });
});
