// library_add through the official MCP client, on PGlite and the local PostgreSQL: a ruling as a PDF and as
// text with its metadata, extracted and found by search_library with its citation, idempotency on the
// bytes, every error code, and callers without the grant.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema/documents.ts';
import { fixtureBytes } from '../../fixtures/hebrew/corpus.ts';
import { textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

interface Upload {
  document: Record<string, unknown> & { id: string; status: string };
  created: boolean;
  job_id: string | null;
}
interface Hits {
  items: {
    document_id: string;
    page: number;
    number: string | null;
    court: string | null;
    snippet: string;
  }[];
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

for (const dbKind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    dbKind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`library_add [${dbKind}]`, () => {
    let s: TestServer;
    let dates: Upload;
    let use: Upload;
    const add = (args: Record<string, unknown>) => s.call('researcher', 'library_add', args);

    beforeAll(async () => {
      s = await startTestServer({ db: dbKind });
      dates = expectOk<Upload>(
        await add({
          content_base64: b64(await fixtureBytes('ruling-7300-18', 'pdf')),
          media_type: 'application/pdf',
          title: 'המועד הקובע להיטל השבחה',
          number: 'בר"ם 7300/18',
          decision_date: '2019-03-25',
          court: 'בית המשפט העליון',
          parties: 'שרון נכסים נ׳ הוועדה המקומית נתניה',
        }),
      );
      use = expectOk<Upload>(
        await add({
          text: new TextDecoder().decode(await fixtureBytes('ruling-4521-19', 'txt')),
          number: 'עע"מ 4521/19',
          court: 'בית המשפט העליון',
        }),
      );
      expectOk(await s.call('researcher', 'extraction_status', { document_id: dates.document.id }));
      expectOk(await s.call('ceo', 'extraction_run', { max_jobs: 20 }));
    });
    afterAll(async () => s?.close());

    it('stores the ruling with its citation in the library corpus', async () => {
      expect(dates).toMatchObject({
        created: true,
        document: { corpus: 'library', case_id: null, media_type: 'application/pdf', status: 'pending' },
      });
      const [stored] = await s.db.db.select().from(documents).where(eq(documents.id, dates.document.id));
      expect(stored).toMatchObject({
        number: 'בר"ם 7300/18',
        decisionDate: '2019-03-25',
        court: 'בית המשפט העליון',
        committee: null,
      });
      expect(typeof dates.job_id).toBe('string');
      // Without a title or file name, the title says there is none (document_update can set one).
      expect(use.document.title).toBe('מסמך ללא כותרת');
    });

    it('is found by search_library with its number and court, from the PDF and from the text', async () => {
      const byDate = expectOk<Hits>(
        await s.call('researcher', 'search_library', { query: 'המועד הקובע לתחילת התכנית' }),
      );
      expect(byDate.items[0]).toMatchObject({
        document_id: dates.document.id,
        number: 'בר"ם 7300/18',
        court: 'בית המשפט העליון',
      });
      const byNumber = expectOk<Hits>(
        await s.call('researcher', 'search_library', { query: 'עע"מ 4521/19' }),
      );
      expect(byNumber.items[0]?.document_id).toBe(use.document.id);
    });

    it('is idempotent on the bytes: the same ruling again returns the first document', async () => {
      const again = expectOk<Upload>(
        await add({ content_base64: b64(await fixtureBytes('ruling-7300-18', 'pdf')) }),
      );
      expect(again).toMatchObject({
        created: false,
        job_id: dates.job_id,
        document: { id: dates.document.id },
      });
      expect(again.document.status).toBe('ready');
      expect(await s.db.db.select().from(documents).where(eq(documents.corpus, 'library'))).toHaveLength(2);
    });

    it('refuses bad arguments (invalid_args) and lying content types (unsupported_media_type)', async () => {
      const invalid: [string, Record<string, unknown>][] = [
        ['neither', { court: 'בית המשפט העליון' }],
        ['both', { text: 'א', content_base64: b64(textBytes('א')) }],
        ['bad date', { text: 'פסק דין', decision_date: '2019-02-30' }],
        ['unknown field', { text: 'פסק דין', committee: 'ועדה' }],
      ];
      for (const [why, args] of invalid) {
        expect([why, errorCode(await add(args))]).toEqual([why, 'invalid_args']);
      }
      const pdf = b64(await fixtureBytes('ruling-4521-19', 'pdf'));
      expect(errorCode(await add({ content_base64: pdf, media_type: 'text/markdown' }))).toBe(
        'unsupported_media_type',
      );
      expect(errorCode(await add({ text: 'פסק דין', media_type: 'application/msword' }))).toBe(
        'unsupported_media_type',
      );
    });

    it('is refused to agents without the grant (tool_not_granted)', async () => {
      for (const agent of ['ceo', 'analyst', 'writer', 'qa'] as const) {
        expect(errorCode(await s.call(agent, 'library_add', { text: 'פסק דין' }))).toBe('tool_not_granted');
      }
    });
  });
}
