import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCase, seedFixtures } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface Hit {
  document_id: string;
  page: number;
  number: string | null;
  decision_date: string | null;
  committee: string | null;
  parties: string | null;
  snippet: string;
}
interface Hits {
  items: Hit[];
  next_cursor: string | null;
  query_terms: string[];
}

describe('search_internal', () => {
  let s: TestServer;
  let ids: Map<string, string>;
  let caseId: string;
  const search = (args: Record<string, unknown>, agent: 'researcher' | 'analyst' = 'researcher') =>
    s.call(agent, 'search_internal', args);

  beforeAll(async () => {
    s = await startTestServer();
    caseId = await seedCase(s.db.db, 'היטל השבחה — הרצל 12');
    // The fixture case (appeal, response, appraisal about a levy exemption) and the committee's decisions.
    ids = await seedFixtures(s.db.db, { format: 'docx', caseId });
  });
  afterAll(async () => s?.close());

  it('finds a decision by words and carries its number, date, committee and parties', async () => {
    const data = expectOk<Hits>(await search({ query: 'שימוש חורג לגן ילדים' }));
    expect(data.items[0]).toMatchObject({
      document_id: ids.get('decision-44-17'),
      number: 'ערר 44-17',
      decision_date: '2017-09-03',
      committee: 'ועדת הערר לתכנון ובנייה מחוז מרכז',
    });
    // Only internal decisions: the case documents and the library never appear.
    const internal = new Set(
      ['decision-6091-09', 'decision-44-17', 'decision-6010-16'].map((n) => ids.get(n)),
    );
    expect(data.items.every((h) => internal.has(h.document_id))).toBe(true);
  });

  it('with like_case_id, finds the decisions most like the case first', async () => {
    const data = expectOk<Hits>(await search({ like_case_id: caseId }));
    expect(data.items[0]?.document_id).toBe(ids.get('decision-6010-16'));
    expect(data.query_terms.length).toBeGreaterThan(3);
    // Combined with words, the words count too.
    const both = expectOk<Hits>(await search({ like_case_id: caseId, query: 'סטייה ניכרת' }));
    expect(both.items.map((h) => h.document_id)).toContain(ids.get('decision-6091-09'));
  });

  it('says "empty" when nothing matches, or the case has no indexed text', async () => {
    expect((await search({ query: 'xyzzy plugh' })).status).toBe('empty');
    const bare = await seedCase(s.db.db, 'ללא');
    expect((await search({ like_case_id: bare })).status).toBe('empty');
  });

  it('refuses a call with neither query nor like_case_id with invalid_args', async () => {
    expect(errorCode(await search({}))).toBe('invalid_args');
  });

  it('answers not_found for an unknown like_case_id', async () => {
    expect(errorCode(await search({ like_case_id: crypto.randomUUID() }))).toBe('not_found');
  });

  it('refuses an agent without the grant (analyst) with tool_not_granted', async () => {
    expect(errorCode(await search({ query: 'הקלה' }, 'analyst'))).toBe('tool_not_granted');
  });
});
