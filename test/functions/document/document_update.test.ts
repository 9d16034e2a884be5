import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface Doc {
  id: string;
  title: string;
  number: string | null;
  decision_date: string | null;
  committee: string | null;
  court: string | null;
  parties: string | null;
  sha256: string;
}

describe('document_update', () => {
  let s: TestServer;
  let caseDoc: string;
  let internalDoc: string;
  const update = (args: Record<string, unknown>, agent: 'analyst' | 'ceo' | 'researcher' = 'analyst') =>
    s.call(agent, 'document_update', args);

  beforeAll(async () => {
    s = await startTestServer();
    const db = s.db.db;
    caseDoc = (
      await seedDocument(db, { corpus: 'case', caseId: await seedCase(db), bytes: textBytes('ערר') })
    ).id;
    internalDoc = (await seedDocument(db, { corpus: 'internal', caseId: null, bytes: textBytes('החלטה') }))
      .id;
  });
  afterAll(async () => s?.close());

  it('changes the title of a case document and says what changed; one audit row', async () => {
    const audit = await auditMark(s.db.db);
    const data = expectOk<{ document: Doc; changed: string[] }>(
      await update({ document_id: caseDoc, title: 'כתב ערר מתוקן' }),
    );
    expect(data.changed).toEqual(['title']);
    expect(data.document).toMatchObject({ id: caseDoc, title: 'כתב ערר מתוקן' });
    const rows = await audit();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tool: 'document_update', agent: 'analyst', outcome: 'ok' });
  });

  it('sets decision metadata of an internal document and leaves the bytes alone', async () => {
    const args = {
      document_id: internalDoc,
      number: 'ערר 6091/09',
      decision_date: '2010-05-17',
      committee: 'ועדת הערר מחוז מרכז',
      parties: 'כהן נ׳ הוועדה המקומית רעננה',
    };
    const data = expectOk<{ document: Doc; changed: string[] }>(await update(args, 'ceo'));
    expect(data.changed.sort()).toEqual(['committee', 'decision_date', 'number', 'parties']);
    expect(data.document).toMatchObject({ number: 'ערר 6091/09', decision_date: '2010-05-17', court: null });
    // Repeating it is harmless (set semantics).
    expect(expectOk<{ document: Doc }>(await update(args, 'ceo')).document.number).toBe('ערר 6091/09');
  });

  it('refuses decision fields on a case document, an empty change, and a bad date with invalid_args', async () => {
    const env = await update({ document_id: caseDoc, number: 'ערר 1/1' });
    expect(errorCode(env)).toBe('invalid_args');
    expect(env.message).toMatch(/internal and library/);
    expect(errorCode(await update({ document_id: caseDoc }))).toBe('invalid_args');
    expect(errorCode(await update({ document_id: internalDoc, decision_date: '17/05/2010' }))).toBe(
      'invalid_args',
    );
    expect(errorCode(await update({ document_id: caseDoc, bytes: 'x' }))).toBe('invalid_args');
  });

  it('answers not_found for an unknown document', async () => {
    expect(errorCode(await update({ document_id: crypto.randomUUID(), title: 'x' }))).toBe('not_found');
  });

  it('refuses an agent without the grant (researcher) with tool_not_granted', async () => {
    expect(errorCode(await update({ document_id: caseDoc, title: 'x' }, 'researcher'))).toBe(
      'tool_not_granted',
    );
  });
});
