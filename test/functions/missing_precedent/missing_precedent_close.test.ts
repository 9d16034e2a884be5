// missing_precedent_close through the official MCP client: closed as found with the document that supplies it
// (the citations of its number then resolve to it) or dismissed, with who and why kept; the same closing again
// is harmless, another is invalid_state; the refusals, a deleted case, 20 identical calls at once, and a
// caller without the grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { missing_precedent_close } from '../../../functions/missing_precedent/missing_precedent_close.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { citations } from '../../../src/db/schema/precedents.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import {
  deniedPrecedent,
  precedentCounts,
  recordMissingPrecedent,
  seedLibrary,
} from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof missing_precedent_close>;

const record = recordMissingPrecedent;

forEachStack('missing_precedent_close', DB_STACKS, (server) => {
  const close = (args: Record<string, unknown>) =>
    server().call('researcher', 'missing_precedent_close', args);

  it(
    'closes as found with the document, resolving the citations of its number to it',
    async () => {
      const db = server().db.db;
      const caseId = await seedCase(db);
      const doc = await seedDocument(db, { corpus: 'case', caseId, bytes: textBytes('ראו עע"מ 4321/21.') });
      expectOk(
        await server().call('researcher', 'citation_extract', { document_id: doc.id, wait_ms: 10_000 }),
      );
      const { R01 } = await seedLibrary(db, { names: ['R01'] });
      const [open] = expectOk<{ items: { missing_precedent_id: string; key: string }[] }>(
        await server().call('researcher', 'missing_precedent_list', { numbers: 'עע"מ 4321/21' }),
      ).items;
      const data = expectOk<Data>(
        await close({
          missing_precedent_id: open?.missing_precedent_id,
          resolution: 'found',
          document_id: R01,
          reason: 'הועלה בשם אחר',
        }),
      );
      expect(data.missing_precedent).toMatchObject({
        status: 'closed',
        resolution: 'found',
        document_id: R01,
        closed_by: 'researcher',
        reason: 'הועלה בשם אחר',
      });
      const [c] = await db.select().from(citations).where(eq(citations.documentId, doc.id));
      expect(c?.citedDocumentId).toBe(R01);
      // The same closing again is harmless (the first answer); another is refused.
      const again = await close({
        missing_precedent_id: open?.missing_precedent_id,
        resolution: 'found',
        document_id: R01,
        reason: 'הועלה בשם אחר',
      });
      expect(expectOk<Data>(again).missing_precedent.closed_by).toBe('researcher');
      expect(
        errorCode(
          await close({
            missing_precedent_id: open?.missing_precedent_id,
            resolution: 'dismissed',
            reason: 'אינו נחוץ',
          }),
        ),
      ).toBe('invalid_state');
    },
    SLOW,
  );

  it(
    'refuses bad arguments, a document of another corpus, an unknown one and a deleted case’s',
    async () => {
      const db = server().db.db;
      const caseId = await seedCase(db);
      const id = await record(server(), 'ע"א 55/21', caseId);
      const caseDoc = await seedDocument(db, { corpus: 'case', caseId, bytes: textBytes('מסמך') });
      const before = await precedentCounts(db);
      expect(errorCode(await close({ missing_precedent_id: id, resolution: 'found', reason: 'נמצא' }))).toBe(
        'invalid_args',
      );
      const style = await seedLibrary(db, { names: ['S01'] });
      const mid = await precedentCounts(db);
      expect(
        errorCode(
          await close({
            missing_precedent_id: id,
            resolution: 'dismissed',
            document_id: style.S01,
            reason: 'x y',
          }),
        ),
      ).toBe('invalid_args');
      expect(
        errorCode(
          await close({
            missing_precedent_id: id,
            resolution: 'found',
            document_id: caseDoc.id,
            reason: 'נמצא',
          }),
        ),
      ).toBe('invalid_args');
      expect(
        errorCode(
          await close({
            missing_precedent_id: crypto.randomUUID(),
            resolution: 'dismissed',
            reason: 'אינו נחוץ',
          }),
        ),
      ).toBe('not_found');
      await deleteCase(db, caseId);
      expect(
        errorCode(await close({ missing_precedent_id: id, resolution: 'dismissed', reason: 'אינו נחוץ' })),
      ).toBe('not_found');
      expect(before.missing_precedents).toBe(mid.missing_precedents);
      expect(await precedentCounts(db)).toEqual(mid);
    },
    SLOW,
  );
});

forEachStack('missing_precedent_close at once', ALL_STACKS, (server) => {
  it(
    '20 identical calls close it once',
    async () => {
      const id = await record(server(), 'בג"ץ 7070/21');
      const answers = await twentyAtOnce(
        server(),
        'missing_precedent_close',
        { missing_precedent_id: id, resolution: 'dismissed', reason: 'אינו נחוץ' },
        ['researcher'],
      );
      for (const a of answers) expect(a.ok).toBe(true);
      const closedAt = new Set(answers.map((a) => (a.ok ? (a.data as Data).missing_precedent.status : '')));
      expect(closedAt).toEqual(new Set(['closed']));
    },
    SLOW,
  );
});

deniedPrecedent('missing_precedent_close', 'analyst', () => ({
  missing_precedent_id: crypto.randomUUID(),
  resolution: 'dismissed',
  reason: 'לא נחוץ',
}));
