// Every paging tool in the registry, called with limit 100000, answers with limit 200 and at most 200 items
// (docs/contract.md "Lists"): the kernel bounds the page, whatever the tool. New list tools are covered by
// walking the registry; a required parameter this test cannot fill fails it, naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolList } from '../../functions/index.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { MAX_LIMIT } from '../../src/contract/limits.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { seedDocument, textBytes } from '../harness/documents.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

const pagingTools = toolList.filter((t) => t.pages !== undefined);
const registry = buildRegistry(toolList);
const agents = await loadAgentsFromDir('agents');

describe('every paging tool caps its page at 200 items', () => {
  let s: TestServer;
  let caseId = '';
  let documentId = '';
  beforeAll(async () => {
    s = await startTestServer();
    // More than the cap, so a list that ignored the limit would show it.
    const rows = Array.from({ length: MAX_LIMIT + 5 }, (_, i) => ({
      id: crypto.randomUUID(),
      caseNumber: `CAP-${i}`,
      title: 'ערר היטל השבחה',
      createdBy: 'ceo',
    }));
    await s.db.db.insert(cases).values(rows);
    caseId = rows[0]?.id ?? '';
    documentId = (
      await seedDocument(s.db.db, { corpus: 'library', caseId: null, bytes: textBytes('פסק דין') })
    ).id;
  });
  afterAll(async () => s?.close());

  /** A value for each required parameter a paging tool may have. */
  const fill = (param: string): unknown => {
    const known: Record<string, unknown> = {
      case_id: caseId,
      document_id: documentId,
      query: 'ערר היטל השבחה',
      corpus: 'library',
      block: 'background',
    };
    if (!(param in known)) throw new Error(`add a value for the required parameter "${param}" to this test`);
    return known[param];
  };

  it('has paging tools to check', () => {
    expect(pagingTools.map((t) => t.name)).toContain('case_list');
  });

  it.each(pagingTools.map((t) => [t.name, t] as const))('%s', async (name, tool) => {
    const listing = registry.get(name)?.listing;
    const required = (listing?.inputSchema.required as string[] | undefined) ?? [];
    // Lists that need one of several selectors get the one this test seeds.
    const oneOf: Record<string, Record<string, unknown>> = {
      document_list: { corpus: 'library' },
      search_internal: { query: 'ערר היטל השבחה' },
      reference_list: { case_id: caseId },
      precedent_list: { case_id: caseId },
      citation_incoming_list: { document_id: documentId },
      draft_bookmark_list: { case_id: caseId },
    };
    const args = { ...Object.fromEntries(required.map((p) => [p, fill(p)])), ...oneOf[name] };
    const agent = [...agents.values()].find((a) => a.tools.includes(name))?.name;
    expect(agent, `${name} is granted to no agent`).toBeDefined();
    const data = expectOk<{ items: unknown[]; limit: number }>(
      await s.call(agent as 'ceo', name, { ...args, limit: 100_000 }),
    );
    expect(data.limit).toBe(MAX_LIMIT);
    expect(data.items.length).toBeLessThanOrEqual(MAX_LIMIT);
    if (tool.name === 'case_list') expect(data.items).toHaveLength(MAX_LIMIT);
  });
});
