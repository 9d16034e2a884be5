import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolList as tools } from '../../../functions/index.ts';
import { callTool } from '../../../src/contract/execute.ts';
import { encodeCursor } from '../../../src/contract/limits.ts';
import { buildRegistry } from '../../../src/contract/registry.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { toolContext } from '../../harness/context.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface Item {
  id: string;
  corpus: string;
  case_id: string | null;
  title: string;
  status: string;
  page_count: number | null;
  media_type: string;
  error: string | null;
}
interface Page {
  items: Item[];
  limit: number;
  next_cursor: string | null;
}

describe('document_list', () => {
  let s: TestServer;
  let caseId: string;
  const made: string[] = [];
  const list = (args: Record<string, unknown>, agent: 'analyst' | 'ceo' = 'analyst') =>
    s.call(agent, 'document_list', args);

  beforeAll(async () => {
    s = await startTestServer();
    const db = s.db.db;
    caseId = await seedCase(db);
    for (const [i, text] of ['כתב ערר', 'תשובה', 'פרוטוקול'].entries()) {
      made.push(
        (await seedDocument(db, { corpus: 'case', caseId, bytes: textBytes(text), title: `מסמך ${i}` })).id,
      );
    }
    // One still waiting for extraction.
    const pending = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes: textBytes('ממתין'),
      title: 'ממתין',
      createdBy: 'test',
    });
    made.push(pending.document.id);
    await seedDocument(db, {
      corpus: 'internal',
      caseId: null,
      bytes: textBytes('החלטה'),
      title: 'החלטה',
      number: 'ערר 1/20',
    });
    // Another case's document never shows up in this case's list.
    await seedDocument(db, {
      corpus: 'case',
      caseId: await seedCase(db),
      bytes: textBytes('אחר'),
      title: 'אחר',
    });
  });
  afterAll(async () => s?.close());

  it('lists a case’s documents oldest first with status and page count', async () => {
    const page = expectOk<Page>(await list({ case_id: caseId }));
    expect(page.items.map((d) => d.id)).toEqual(made);
    expect(page.items[0]).toMatchObject({
      corpus: 'case',
      case_id: caseId,
      status: 'ready',
      page_count: 1,
    });
    expect(page.items[3]).toMatchObject({ status: 'pending', page_count: null });
    expect(page.next_cursor).toBeNull();
  });

  it('lists a corpus, filters by status, and pages with the cursor', async () => {
    const internal = expectOk<Page>(await list({ corpus: 'internal' }));
    expect(internal.items.map((d) => d.title)).toEqual(['החלטה']);
    const pending = expectOk<Page>(await list({ case_id: caseId, status: 'pending' }));
    expect(pending.items.map((d) => d.title)).toEqual(['ממתין']);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = expectOk<Page>(await list({ case_id: caseId, limit: 1, ...(cursor ? { cursor } : {}) }));
      expect(p.limit).toBe(1);
      seen.push(...p.items.map((d) => d.id));
      cursor = p.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(made);
  });

  it('says "empty" when a corpus has no documents', async () => {
    const env = await list({ corpus: 'library' });
    expect(env.status).toBe('empty');
    expect(expectOk<Page>(env).items).toEqual([]);
  });

  it('refuses missing or contradictory selectors and foreign cursors with invalid_args', async () => {
    expect(errorCode(await list({}))).toBe('invalid_args');
    expect(errorCode(await list({ corpus: 'case' }))).toBe('invalid_args');
    expect(errorCode(await list({ case_id: caseId, corpus: 'library' }))).toBe('invalid_args');
    expect(errorCode(await list({ corpus: 'nope' }))).toBe('invalid_args');
    const foreign = encodeCursor('case_list', { case_id: caseId }, [
      '2025-01-01T00:00:00.000000Z',
      crypto.randomUUID(),
    ]);
    expect(errorCode(await list({ case_id: caseId, cursor: foreign }))).toBe('invalid_args');
    // A forged cursor with a date that does not exist is refused before it reaches the database.
    const feb30 = encodeCursor('document_list', { case_id: caseId }, [
      '2025-02-30T00:00:00.000000Z',
      crypto.randomUUID(),
    ]);
    expect(errorCode(await list({ case_id: caseId, cursor: feb30 }))).toBe('invalid_args');
  });

  it('answers not_found for an unknown case', async () => {
    expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
  });

  it('refuses a caller without the grant with tool_not_granted (every agent holds it, so via the kernel)', async () => {
    const tool = buildRegistry(tools).get('document_list');
    if (tool === undefined) throw new Error('document_list is not registered');
    const env = await callTool({
      tool,
      args: { corpus: 'internal' },
      grants: new Set(['case_get']),
      ctx: toolContext({ db: s.db.db, kv: s.kv }, { agent: 'outsider' }),
    });
    expect(errorCode(env)).toBe('tool_not_granted');
  });
});
