import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixtures } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface Hit {
  document_id: string;
  number: string | null;
  court: string | null;
  parties: string | null;
  decision_date: string | null;
  snippet: string;
}

describe('search_library', () => {
  let s: TestServer;
  let ids: Map<string, string>;
  const search = (args: Record<string, unknown>, agent: 'researcher' | 'analyst' | 'qa' = 'researcher') =>
    s.call(agent, 'search_library', args);

  beforeAll(async () => {
    s = await startTestServer();
    ids = await seedFixtures(s.db.db, { format: 'txt' });
  });
  afterAll(async () => s?.close());

  it('finds a ruling by its citation, with or without gershayim, and carries its metadata', async () => {
    for (const query of ['עע"מ 4521/19', 'עע״מ 4521/19', 'עעמ 4521/19']) {
      const data = expectOk<{ items: Hit[] }>(await search({ query }));
      expect(data.items[0], query).toMatchObject({
        document_id: ids.get('ruling-4521-19'),
        number: 'עע"מ 4521/19',
        court: 'בית המשפט העליון',
        parties: 'הוועדה המקומית חולון נ׳ כהן',
        decision_date: '2020-08-12',
      });
    }
    const timing = expectOk<{ items: Hit[] }>(await search({ query: 'והמועד הקובע לתחילת התכנית' }, 'qa'));
    expect(timing.items[0]?.document_id).toBe(ids.get('ruling-7300-18'));
    expect(timing.items[0]?.snippet).toMatch(/«המועד»|«הקובע»/);
  });

  it('finds the Hebrew ruling by English terms and a number in another form, and says which synonym matched', async () => {
    const english = expectOk<{ items: Hit[]; query_terms: string[] }>(
      await search({ query: 'non-conforming use' }),
    );
    expect(english.items[0]?.document_id).toBe(ids.get('ruling-4521-19'));
    expect(english.items[0]?.snippet).toContain('«חורג»');
    expect(english.query_terms).toEqual(['non', 'conforming', 'use', 'non conforming use → שימוש חורג']);
    const dated = expectOk<{ items: Hit[] }>(await search({ query: 'determining date' }, 'qa'));
    expect(dated.items[0]?.document_id).toBe(ids.get('ruling-7300-18'));
    const number = expectOk<{ items: Hit[] }>(await search({ query: '4521-2019' }));
    expect(number.items[0]?.document_id).toBe(ids.get('ruling-4521-19'));
  });

  it('says "empty" when nothing matches', async () => {
    expect((await search({ query: 'xyzzy plugh' })).status).toBe('empty');
  });

  it('refuses an empty query with invalid_args', async () => {
    expect(errorCode(await search({ query: '' }))).toBe('invalid_args');
    expect(errorCode(await search({}))).toBe('invalid_args');
  });

  it('refuses an agent without the grant (analyst) with tool_not_granted', async () => {
    expect(errorCode(await search({ query: 'שימוש חורג' }, 'analyst'))).toBe('tool_not_granted');
  });
});
