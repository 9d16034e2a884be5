// Case document roles: given at upload (role_source "given") or detected from the first page once the text is
// extracted, listed and filtered by document_list, corrected by document_update; and the analysis queued on
// its own after a case document's text extraction, end to end through the drain.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { claim_list } from '../../../functions/claim/claim_list.ts';
import type { document_list } from '../../../functions/document/document_list.ts';
import type { document_upload } from '../../../functions/document/document_upload.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { caseFileBytes } from '../../fixtures/case_file/case_file.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

type Upload = ToolData<typeof document_upload>;
type Docs = ToolData<typeof document_list>;
type Claims = ToolData<typeof claim_list>;

const text = async (name: Parameters<typeof caseFileBytes>[0]) =>
  new TextDecoder().decode(await caseFileBytes(name, 'txt'));

describe('case document roles and the analysis after upload', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());
  const drain = async () => {
    for (let i = 0; i < 5; i++) {
      const report = expectOk<{ claimed: number }>(await s.call('ceo', 'extraction_run', { max_jobs: 50 }));
      if (report.claimed === 0) return;
    }
  };

  it('detects the roles of uploaded documents, keeps a given one, and queues the analysis that reads each', async () => {
    const caseId = await seedCase(s.db.db);
    const upload = async (name: Parameters<typeof caseFileBytes>[0], role?: string) =>
      expectOk<Upload>(
        await s.call('ceo', 'document_upload', {
          corpus: 'case',
          case_id: caseId,
          text: await text(name),
          ...(role ? { role } : {}),
        }),
      ).document.id;
    const appeal = await upload('appeal');
    const response = await upload('response');
    const deciding = await upload('deciding_appraisal');
    const given = await upload('interim_decision', 'protocol');
    await drain();
    const listed = expectOk<Docs>(await s.call('analyst', 'document_list', { case_id: caseId }));
    expect(listed.items.map((d) => d.role)).toEqual(['appeal', 'response', 'deciding_appraisal', 'protocol']);
    const updated = expectOk<{ document: { role: string; role_source: string } }>(
      await s.call('analyst', 'document_update', { document_id: given, title: 'פרוטוקול' }),
    );
    expect(updated.document).toMatchObject({ role: 'protocol', role_source: 'given' });
    const queued = await s.db.db
      .select({ kind: jobs.kind, subject: jobs.subject, state: jobs.state })
      .from(jobs);
    const kindsOf = (id: string) =>
      queued
        .filter((j) => j.subject === `document:${id}`)
        .map((j) => j.kind)
        .sort();
    // Every case document is also read for the rulings and decisions it cites (citation_extract).
    expect(kindsOf(appeal)).toEqual([
      'citation_extract',
      'claim_extract',
      'document_extract',
      'reference_extract',
    ]);
    expect(kindsOf(deciding)).toEqual([
      'appraiser_fact_extract',
      'citation_extract',
      'document_extract',
      'reference_extract',
    ]);
    // A protocol is read for the parties' statements, so claim_extract runs on it too.
    expect(kindsOf(given)).toEqual([
      'citation_extract',
      'claim_extract',
      'document_extract',
      'reference_extract',
    ]);
    expect(queued.every((j) => j.state === 'succeeded')).toBe(true);
    // The analysis ran on its own: the claims are there without claim_extract.
    const claims = expectOk<Claims>(await s.call('analyst', 'claim_list', { case_id: caseId, limit: 200 }));
    expect(claims.items.map((c) => c.source.document_id).filter((d) => d === response)).toHaveLength(4);
    const byRole = expectOk<Docs>(
      await s.call('analyst', 'document_list', { case_id: caseId, role: 'deciding_appraisal' }),
    );
    expect(byRole.items.map((d) => d.id)).toEqual([deciding]);
    // extraction_status shows the new kinds, per kind and per document.
    const status = expectOk<{ handled_kinds: string[]; kinds: { kind: string }[] }>(
      await s.call('analyst', 'extraction_status', { document_id: deciding }),
    );
    expect(status.handled_kinds).toEqual(
      expect.arrayContaining(['reference_extract', 'claim_extract', 'appraiser_fact_extract']),
    );
    expect(status.kinds.map((k) => k.kind).sort()).toEqual([
      'appraiser_fact_extract',
      'citation_extract',
      'document_extract',
      'reference_extract',
    ]);
  });

  it('a role corrected to one the claims extractor reads queues it; a role on a style example is refused', async () => {
    const caseId = await seedCase(s.db.db);
    const id = expectOk<Upload>(
      await s.call('ceo', 'document_upload', {
        corpus: 'case',
        case_id: caseId,
        text: await text('response'),
        role: 'other',
      }),
    ).document.id;
    await drain();
    const claimJob = () =>
      s.db.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'claim_extract'), eq(jobs.subject, `document:${id}`)));
    expect(await claimJob()).toHaveLength(0);
    const env = await s.call('analyst', 'document_update', { document_id: id, role: 'response' });
    expect(expectOk<{ changed: string[] }>(env).changed).toEqual(['role']);
    expect((await claimJob())[0]?.state).toBe('pending');
    await drain();
    const claims = expectOk<Claims>(await s.call('analyst', 'claim_list', { case_id: caseId }));
    expect(claims.items).toHaveLength(4);
    expect(
      errorCode(await s.call('ceo', 'document_upload', { corpus: 'style', text: 'דוגמה', role: 'appeal' })),
    ).toBe('invalid_args');
    const style = expectOk<Upload>(
      await s.call('ceo', 'document_upload', { corpus: 'style', text: `דוגמה ${crypto.randomUUID()}` }),
    );
    expect(
      errorCode(await s.call('ceo', 'document_update', { document_id: style.document.id, role: 'appeal' })),
    ).toBe('invalid_args');
    expect(errorCode(await s.call('ceo', 'document_list', { case_id: caseId, role: 'brief' }))).toBe(
      'invalid_args',
    );
  });
});
