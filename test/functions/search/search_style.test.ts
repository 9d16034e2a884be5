import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

describe('search_style', () => {
  let s: TestServer;
  let costs: string;
  const search = (args: Record<string, unknown>, agent: 'writer' | 'ceo' = 'writer') =>
    s.call(agent, 'search_style', args);

  beforeAll(async () => {
    s = await startTestServer();
    const db = s.db.db;
    costs = (
      await seedDocument(db, {
        corpus: 'style',
        caseId: null,
        bytes: textBytes('סוף דבר\n\nאשר על כן הערר נדחה. העוררים ישאו בהוצאות המשיבה בסך 5,000 ש"ח.'),
        title: 'החלטה לדוגמה — הוצאות',
      })
    ).id;
    await seedDocument(db, {
      corpus: 'style',
      caseId: null,
      bytes: textBytes('רקע\n\nהעוררים הם בעלי דירה ברחוב הגפן, והגישו בקשה להיתר.'),
      title: 'החלטה לדוגמה — רקע',
    });
    // A case document with the same words is not part of the style corpus.
    await seedDocument(db, {
      corpus: 'internal',
      caseId: null,
      bytes: textBytes('הוצאות המשיבה בסך 9,000'),
      title: 'x',
    });
  });
  afterAll(async () => s?.close());

  it('finds how the chair words a passage', async () => {
    const data = expectOk<{ items: { document_id: string; snippet: string; page: number }[] }>(
      await search({ query: 'בהוצאות המשיבה' }),
    );
    expect(data.items.map((h) => h.document_id)).toEqual([costs]);
    expect(data.items[0]?.snippet).toContain('«בהוצאות»');
    expect(data.items[0]?.page).toBe(1);
  });

  it('says "empty" when nothing matches', async () => {
    expect((await search({ query: 'xyzzy plugh' })).status).toBe('empty');
  });

  it('refuses unknown arguments with invalid_args', async () => {
    expect(errorCode(await search({ query: 'רקע', corpus: 'case' }))).toBe('invalid_args');
  });

  it('refuses an agent without the grant (ceo) with tool_not_granted', async () => {
    expect(errorCode(await search({ query: 'רקע' }, 'ceo'))).toBe('tool_not_granted');
  });
});
