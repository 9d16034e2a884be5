// document_upload's refusals, through the official MCP client, on PGlite and the local PostgreSQL: every
// error code it returns (invalid_args, unsupported_media_type, not_found, payload_too_large,
// tool_not_granted), each with nothing stored.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema/audit_log.ts';
import { cases } from '../../../src/db/schema/cases.ts';
import { documents } from '../../../src/db/schema/documents.ts';
import { MAX_BYTES } from '../../../src/documents/media.ts';
import { fixtureBytes } from '../../fixtures/hebrew/corpus.ts';
import { seedCase, textBytes } from '../../harness/documents.ts';
import { errorCode, startTestServer, type TestServer } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

for (const dbKind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    dbKind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`document_upload refusals [${dbKind}]`, () => {
    let s: TestServer;
    const upload = (args: Record<string, unknown>, agent: 'ceo' | 'analyst' = 'ceo') =>
      s.call(agent, 'document_upload', args);

    beforeAll(async () => {
      s = await startTestServer({ db: dbKind });
    });
    afterAll(async () => s?.close());

    it('refuses malformed content and corpus/case mismatches (invalid_args)', async () => {
      const caseId = await seedCase(s.db.db);
      const cases_: [string, Record<string, unknown>][] = [
        ['neither', { corpus: 'case', case_id: caseId }],
        ['both', { corpus: 'case', case_id: caseId, text: 'א', content_base64: b64(textBytes('א')) }],
        ['bad base64', { corpus: 'case', case_id: caseId, content_base64: '@@@not base64@@@' }],
        ['case_id with style', { corpus: 'style', case_id: caseId, text: 'דוגמה' }],
        ['case without case_id', { corpus: 'case', text: 'דוגמה' }],
        ['unknown corpus', { corpus: 'internal', text: 'דוגמה' }],
      ];
      for (const [why, args] of cases_) {
        const env = await upload(args);
        expect([why, errorCode(env)]).toEqual([why, 'invalid_args']);
      }
      expect(await s.db.db.select().from(documents).where(eq(documents.caseId, caseId))).toHaveLength(0);
    });

    it('refuses unknown and lying content types (unsupported_media_type)', async () => {
      const caseId = await seedCase(s.db.db);
      const pdf = b64(await fixtureBytes('appeal', 'pdf'));
      const bad: [string, Record<string, unknown>][] = [
        ['unknown type', { content_base64: b64(textBytes('שלום')), media_type: 'image/png' }],
        ['text declared as PDF', { text: 'שלום', media_type: PDF }],
        ['PDF declared as DOCX', { content_base64: pdf, media_type: DOCX }],
        ['PDF declared as text', { content_base64: pdf, media_type: 'text/plain' }],
        ['PNG bytes', { content_base64: b64(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])) }],
        [
          'old .doc (OLE) bytes',
          { content_base64: b64(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3, 4])) },
        ],
      ];
      for (const [why, args] of bad) {
        const env = await upload({ corpus: 'case', case_id: caseId, ...args });
        expect([why, errorCode(env)]).toEqual([why, 'unsupported_media_type']);
      }
      expect(await s.db.db.select().from(documents).where(eq(documents.caseId, caseId))).toHaveLength(0);
    });

    it('answers not_found for an unknown or a deleted case', async () => {
      const missing = crypto.randomUUID();
      const env = await upload({ corpus: 'case', case_id: missing, text: 'מסמך' });
      expect(errorCode(env)).toBe('not_found');
      expect(env.ok ? null : env.error.details).toMatchObject({ case_id: missing });
      const deleted = await seedCase(s.db.db);
      await s.db.db.update(cases).set({ deletedAt: new Date() }).where(eq(cases.id, deleted));
      expect(errorCode(await upload({ corpus: 'case', case_id: deleted, text: 'מסמך' }))).toBe('not_found');
    });

    it('refuses oversize content with payload_too_large before it is hashed or decoded', async () => {
      // Uploaders get the upload body cap (28 MiB), which is above every file cap: the tool decides.
      const call = (args: Record<string, unknown>) => s.call('ceo', 'document_upload', args);
      const caseId = await seedCase(s.db.db);
      const bigText = await call({
        corpus: 'case',
        case_id: caseId,
        text: 'א'.repeat(MAX_BYTES['text/plain'] + 1),
      });
      expect(errorCode(bigText)).toBe('payload_too_large');
      expect(bigText.ok ? null : bigText.error.details).toMatchObject({ max_bytes: MAX_BYTES['text/plain'] });
      // A "PDF" of 20 MiB + 3 bytes, judged by the length of its base64 (never decoded: it is not even base64).
      const bigFile = await call({
        corpus: 'style',
        content_base64: '!'.repeat(((MAX_BYTES[PDF] + 3) / 3) * 4),
      });
      expect(errorCode(bigFile)).toBe('payload_too_large');
      // A declared type's own cap: a text file past 2 MiB, given as base64.
      const bigTxt = await call({
        corpus: 'style',
        content_base64: 'QUFB'.repeat(MAX_BYTES['text/plain'] / 3 + 1),
        media_type: 'text/plain',
      });
      expect(errorCode(bigTxt)).toBe('payload_too_large');
      // Refused before the idempotency key existed: the audit rows carry none.
      const audit = await s.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.tool, 'document_upload'), eq(auditLog.errorCode, 'payload_too_large')));
      expect(audit.length).toBe(3);
      expect(audit.every((a) => a.idempotencyKey === null)).toBe(true);
      expect(await s.db.db.select().from(documents).where(eq(documents.caseId, caseId))).toHaveLength(0);
    });

    it('is refused to agents without the grant (tool_not_granted)', async () => {
      for (const agent of ['researcher', 'writer', 'qa'] as const) {
        expect(errorCode(await s.call(agent, 'document_upload', { corpus: 'style', text: 'x' }))).toBe(
          'tool_not_granted',
        );
      }
      const count = await s.db.db.execute(
        sql`select count(*)::int as n from documents where created_by in ('researcher','writer','qa')`,
      );
      expect((count as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    });
  });
}
