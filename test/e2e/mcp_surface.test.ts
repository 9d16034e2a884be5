// MCP beyond tools, through the official client: the agents' instructions and prepare_decision as prompts
// (case numbers complete), a case document's page and the case's draft as resource templates (ids complete),
// each shown and read only by agents holding the tool that reads it.
import type { Client } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases } from '../../src/db/schema/cases.ts';
import { NO_DRAFT } from '../../src/mcp/surface_reads.ts';
import { seedDocument, textBytes } from '../harness/documents.ts';
import { agentsWithout, expectOk, startTestServer, type TestServer } from '../harness/server.ts';

const PAGE = (c: string, d: string, p: number | string) => `chambers://cases/${c}/documents/${d}/pages/${p}`;
const DRAFT = (c: string) => `chambers://cases/${c}/draft`;
/** The text of a prompt's first message. */
const textOf = (got: { messages: { content: unknown }[] }) =>
  (got.messages[0]?.content as { text?: string } | undefined)?.text ?? '';
/** MCP's "resource not found" (the SDK sends it as invalid params, with the URI in its data). */
const NOT_FOUND = { code: -32602, data: { uri: expect.stringMatching(/^chambers:\/\//) } };

describe('MCP prompts, resources and completion', () => {
  let s: TestServer;
  let caseId: string;
  let otherCase: string;
  let docId: string;
  const clients: Partial<Record<'ceo' | 'analyst' | 'writer' | 'researcher', Client>> = {};
  const client = async (agent: 'ceo' | 'analyst' | 'writer' | 'researcher') => {
    clients[agent] ??= await s.connect(agent);
    return clients[agent];
  };
  const makeCase = async (number: string, title: string) =>
    expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: number, title, appellant: 'משפחת לוי' }),
    ).case.id;

  beforeAll(async () => {
    // Every real agent holds draft_get: an analyst without it stands for a caller who may not read drafts.
    s = await startTestServer({ agents: await agentsWithout({ analyst: ['draft_get'] }) });
    caseId = await makeCase('ערר 1024/25', 'היטל השבחה — רחוב הרצל 12');
    otherCase = await makeCase('ערר 2048/25', 'היתר בנייה — הקלה');
    const doc = await seedDocument(s.db.db, {
      corpus: 'case',
      caseId,
      title: 'כתב הערר',
      bytes: textBytes('עמוד ראשון: רקע\fעמוד שני: טענות העוררים'),
      declaredMediaType: 'text/plain',
    });
    docId = doc.id;
  });
  afterAll(async () => s?.close());

  it('lists every agent’s instructions as a prompt, and prepare_decision for those who list cases', async () => {
    const { prompts } = await (await client('ceo')).listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      'analyst_instructions',
      'ceo_instructions',
      'prepare_decision',
      'qa_instructions',
      'researcher_instructions',
      'writer_instructions',
    ]);
    const got = await (await client('analyst')).getPrompt({ name: 'qa_instructions' });
    const text = textOf(got);
    expect(text).toContain('`case_get`');
    expect(got.description).toMatch(/draft/);
  });

  it('prepare_decision gives the case, its documents and the plan; its case number completes', async () => {
    const c = await client('analyst');
    const got = await c.getPrompt({ name: 'prepare_decision', arguments: { case_number: 'ערר 1024/25' } });
    const text = textOf(got);
    expect(text).toContain('ערר 1024/25 — היטל השבחה — רחוב הרצל 12');
    expect(text).toContain('Appellants (העוררים): משפחת לוי');
    expect(text).toContain(
      `כתב הערר — ready, 2 pages (document_id ${docId}; pages at ${PAGE(caseId, docId, 1)}`,
    );
    await expect(
      c.getPrompt({ name: 'prepare_decision', arguments: { case_number: 'ערר 9/99' } }),
    ).rejects.toThrow(/No live case numbered/);
    const done = await c.complete({
      ref: { type: 'ref/prompt', name: 'prepare_decision' },
      argument: { name: 'case_number', value: '1024' },
    });
    expect(done.completion.values).toEqual(['ערר 1024/25']);
    const all = await c.complete({
      ref: { type: 'ref/prompt', name: 'prepare_decision' },
      argument: { name: 'case_number', value: '' },
    });
    expect(all.completion.values).toEqual(['ערר 1024/25', 'ערר 2048/25']);
  });

  it('shows each template only to agents holding its reading tool', async () => {
    const names = async (agent: 'ceo' | 'analyst' | 'writer') =>
      (await (await client(agent)).listResourceTemplates()).resourceTemplates.map((t) => t.name).sort();
    expect(await names('analyst')).toEqual(['case_document_page']);
    expect(await names('ceo')).toEqual(['case_draft']);
    expect(await names('writer')).toEqual(['case_document_page', 'case_draft']);
  });

  it('reads a case document’s page by URI; another case’s, a missing page or an ungranted caller is not found', async () => {
    const analyst = await client('analyst');
    const page2 = await analyst.readResource({ uri: PAGE(caseId, docId, 2) });
    expect(page2.contents).toEqual([
      { uri: PAGE(caseId, docId, 2), mimeType: 'text/plain', text: 'עמוד שני: טענות העוררים' },
    ]);
    for (const uri of [
      PAGE(otherCase, docId, 1),
      PAGE(caseId, docId, 3),
      PAGE(caseId, docId, 0),
      PAGE(caseId, 'x', 1),
    ]) {
      await expect(analyst.readResource({ uri })).rejects.toMatchObject(NOT_FOUND);
    }
    await expect((await client('ceo')).readResource({ uri: PAGE(caseId, docId, 1) })).rejects.toThrow(
      /not found/i,
    );
  });

  it('reads the case’s draft: "no draft yet", the draft from its blocks, the final text once taken in; ungranted callers see nothing', async () => {
    const ceo = await client('ceo');
    expect((await ceo.readResource({ uri: DRAFT(caseId) })).contents).toEqual([
      { uri: DRAFT(caseId), mimeType: 'text/plain', text: NO_DRAFT },
    ]);
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: otherCase,
        blocks: [{ kind: 'background', text: 'המבקשים ביקשו הקלה בקו בניין.' }],
      }),
    );
    const drafted = (await (await client('writer')).readResource({ uri: DRAFT(otherCase) })).contents[0];
    const draftText = drafted !== undefined && 'text' in drafted ? drafted.text : '';
    expect(drafted).toMatchObject({ mimeType: 'text/plain' });
    expect(draftText).toContain('המבקשים ביקשו הקלה בקו בניין.');
    expect(draftText).toContain('[טרם נכתב: כותרת ההחלטה]');
    await s.db.db
      .update(cases)
      .set({ finalText: 'הערר נדחה.', finalTextAt: new Date() })
      .where(eq(cases.id, otherCase));
    expect((await ceo.readResource({ uri: DRAFT(otherCase) })).contents[0]).toMatchObject({
      text: 'הערר נדחה.',
    });
    await expect((await client('analyst')).readResource({ uri: DRAFT(caseId) })).rejects.toThrow(
      /not found/i,
    );
    const listed = (await ceo.listResources()).resources;
    expect(listed.map((r) => r.uri)).toEqual([DRAFT(caseId), DRAFT(otherCase)]);
    expect((await (await client('analyst')).listResources()).resources).toEqual([]);
  });

  it('completes a template’s ids: case ids by prefix, the case’s ready documents, the document’s pages', async () => {
    const writer = await client('writer');
    const ref = {
      type: 'ref/resource' as const,
      uri: 'chambers://cases/{case_id}/documents/{document_id}/pages/{page}',
    };
    const ids = await writer.complete({ ref, argument: { name: 'case_id', value: caseId.slice(0, 6) } });
    expect(ids.completion.values).toContain(caseId);
    expect(ids.completion.values.every((v) => v.startsWith(caseId.slice(0, 6)))).toBe(true);
    const docs = await writer.complete({
      ref,
      argument: { name: 'document_id', value: '' },
      context: { arguments: { case_id: caseId } },
    });
    expect(docs.completion.values).toEqual([docId]);
    const none = await writer.complete({
      ref,
      argument: { name: 'document_id', value: '' },
      context: { arguments: { case_id: otherCase } },
    });
    expect(none.completion.values).toEqual([]);
    const pages = await writer.complete({
      ref,
      argument: { name: 'page', value: '' },
      context: { arguments: { case_id: caseId, document_id: docId } },
    });
    expect(pages.completion.values).toEqual(['1', '2']);
    // A caller without the reading tool gets no completions for the template.
    const ceoIds = await (await client('ceo')).complete({ ref, argument: { name: 'case_id', value: '' } });
    expect(ceoIds.completion.values).toEqual([]);
  });

  it('serves the 2026-07-28 era the same', async () => {
    const modern = await s.connect('writer', { era: 'modern' });
    expect((await modern.listPrompts()).prompts.map((p) => p.name)).toContain('prepare_decision');
    expect((await modern.readResource({ uri: PAGE(caseId, docId, 1) })).contents[0]).toMatchObject({
      text: 'עמוד ראשון: רקע',
    });
  });

  it('a deleted case’s resources are gone', async () => {
    const gone = await makeCase('ערר 4096/25', 'יימחק');
    expectOk(await s.call('ceo', 'case_delete', { case_id: gone, owner_ack: true, reason: 'נפתח בטעות' }));
    await expect((await client('ceo')).readResource({ uri: DRAFT(gone) })).rejects.toMatchObject(NOT_FOUND);
    const listed = (await (await client('ceo')).listResources()).resources.map((r) => r.uri);
    expect(listed).not.toContain(DRAFT(gone));
  });
});
