// internal_decision_add through the official MCP client, on PGlite and the local PostgreSQL: a decision as
// a file and as text with its metadata, extracted and found by search_internal (by words and like_case_id),
// idempotency on the bytes, every error code, and callers without the grant.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema/documents.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { fixtureBytes } from '../../fixtures/hebrew/corpus.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

interface Upload {
  document: Record<string, unknown> & { id: string };
  created: boolean;
  job_id: string | null;
}
interface Hits {
  items: { document_id: string; page: number; number: string | null; committee: string | null }[];
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

for (const dbKind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    dbKind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`internal_decision_add [${dbKind}]`, () => {
    let s: TestServer;
    let caseId: string;
    let levy: Upload;
    let nursery: Upload;
    const add = (args: Record<string, unknown>, agent: 'researcher' | 'ceo' = 'researcher') =>
      s.call(agent, 'internal_decision_add', args);

    beforeAll(async () => {
      s = await startTestServer({ db: dbKind });
      // The case file (appeal, response, appraisal about a levy exemption).
      caseId = await seedCase(s.db.db, 'היטל השבחה — הרצל 12');
      for (const name of ['appeal', 'response', 'appraisal']) {
        await seedDocument(s.db.db, { corpus: 'case', caseId, bytes: await fixtureBytes(name, 'txt') });
      }
      levy = expectOk<Upload>(
        await add({
          content_base64: b64(await fixtureBytes('decision-6010-16', 'docx')),
          media_type: DOCX,
          filename: 'decision-6010-16.docx',
          title: 'פטור מהיטל השבחה — דירת מגורים מזכה',
          number: 'ערר בב/6010/16',
          decision_date: '2016-11-20',
          committee: 'ועדת הערר לתכנון ובנייה מחוז מרכז',
          parties: 'פרידמן נ׳ הוועדה המקומית בני ברק',
        }),
      );
      nursery = expectOk<Upload>(
        await add(
          {
            text: new TextDecoder().decode(await fixtureBytes('decision-44-17', 'txt')),
            title: 'שימוש חורג — גן ילדים בדירת מגורים',
            number: 'ערר 44-17',
            decision_date: '2017-09-03',
            committee: 'ועדת הערר לתכנון ובנייה מחוז מרכז',
          },
          'ceo',
        ),
      );
      expectOk(await s.call('ceo', 'extraction_run', { max_jobs: 20 }));
    });
    afterAll(async () => s?.close());

    it('stores the decision with its metadata in the internal corpus and queues its extraction', async () => {
      expect(levy).toMatchObject({
        created: true,
        document: {
          corpus: 'internal',
          case_id: null,
          media_type: DOCX,
          status: 'pending',
        },
      });
      // The metadata as cited is stored with the document.
      const [stored] = await s.db.db.select().from(documents).where(eq(documents.id, levy.document.id));
      expect(stored).toMatchObject({
        number: 'ערר בב/6010/16',
        decisionDate: '2016-11-20',
        committee: 'ועדת הערר לתכנון ובנייה מחוז מרכז',
        parties: 'פרידמן נ׳ הוועדה המקומית בני ברק',
        court: null,
      });
      const [job] = await s.db.db
        .select()
        .from(jobs)
        .where(eq(jobs.id, levy.job_id as string));
      expect(job).toMatchObject({
        kind: 'document_extract',
        dedupeKey: levy.document.id,
        state: 'succeeded',
      });
      const [row] = await s.db.db.select().from(documents).where(eq(documents.id, levy.document.id));
      expect(row?.status).toBe('ready');
    });

    it('is found by search_internal, by words and with like_case_id, with its number and committee', async () => {
      const words = expectOk<Hits>(
        await s.call('researcher', 'search_internal', { query: 'גן ילדים בדירת מגורים' }),
      );
      expect(words.items[0]).toMatchObject({ document_id: nursery.document.id, number: 'ערר 44-17' });
      const like = expectOk<Hits>(await s.call('researcher', 'search_internal', { like_case_id: caseId }));
      expect(like.items[0]).toMatchObject({
        document_id: levy.document.id,
        number: 'ערר בב/6010/16',
        committee: 'ועדת הערר לתכנון ובנייה מחוז מרכז',
      });
    });

    it('is idempotent on the bytes: the same decision again returns the first document', async () => {
      const again = expectOk<Upload>(
        await add({ content_base64: b64(await fixtureBytes('decision-6010-16', 'docx')) }, 'ceo'),
      );
      expect(again).toMatchObject({
        created: false,
        job_id: levy.job_id,
        document: { id: levy.document.id },
      });
      const rows = await s.db.db
        .select()
        .from(documents)
        .where(and(eq(documents.corpus, 'internal'), eq(documents.number, 'ערר בב/6010/16')));
      expect(rows).toHaveLength(1);
    });

    it('refuses bad arguments (invalid_args) and bytes that are no document (unsupported_media_type)', async () => {
      const invalid: [string, Record<string, unknown>][] = [
        ['neither', { number: 'ערר 1/20' }],
        ['both', { text: 'א', content_base64: b64(textBytes('א')) }],
        ['bad date', { text: 'החלטה', decision_date: '20.11.2016' }],
        ['bad base64', { content_base64: '***' }],
      ];
      for (const [why, args] of invalid) {
        expect([why, errorCode(await add(args))]).toEqual([why, 'invalid_args']);
      }
      const png = b64(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
      expect(errorCode(await add({ content_base64: png }))).toBe('unsupported_media_type');
      expect(errorCode(await add({ text: 'החלטה', media_type: 'application/pdf' }))).toBe(
        'unsupported_media_type',
      );
    });

    it('is refused to agents without the grant (tool_not_granted)', async () => {
      for (const agent of ['analyst', 'writer', 'qa'] as const) {
        expect(errorCode(await s.call(agent, 'internal_decision_add', { text: 'החלטה' }))).toBe(
          'tool_not_granted',
        );
      }
    });
  });
}
