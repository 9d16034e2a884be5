// claim_extract through the official MCP client: the candidate claims and relief requests of the case file with
// party and provenance; the role check; a re-run after agents' decisions that keeps every decision (and a
// candidate an argument uses); the refusals; a deleted case; 20 identical calls at once; no grant.
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { claim_extract } from '../../../functions/claim/claim_extract.ts';
import type { claim_list } from '../../../functions/claim/claim_list.ts';
import { claimExtractor } from '../../../src/analysis/extractors.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { claims } from '../../../src/db/schema/analysis.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  seedCaseFile,
  tableCounts,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { rerun } from '../../harness/rerun.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

type Data = ToolData<typeof claim_extract>;
type Claims = ToolData<typeof claim_list>;

forEachStack('claim_extract', DB_STACKS, (server) => {
  const extract = (args: Record<string, unknown>) => server().call('analyst', 'claim_extract', args);
  const record = async (args: Record<string, unknown>) =>
    expectOk(await server().call('analyst', 'claim_record', args));
  const rowsOf = (documentId: string) =>
    server().db.db.select().from(claims).where(eq(claims.documentId, documentId)).orderBy(asc(claims.seq));

  it('proposes every claim and relief request of the appeal, the response and the decision, with provenance', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db);
    const env = await extract({ case_id: caseId, wait_ms: 10_000 });
    const data = expectOk<Data>(env);
    expect(data).toMatchObject({ done: true, summary: { claims: 11, relief: 3 } });
    // Only the documents it reads: the appraisals are not queued.
    expect(data.jobs.map((j) => j.document_id).sort()).toEqual(
      [docs.appeal, docs.response, docs.interim_decision].sort(),
    );
    const appeal = await rowsOf(docs.appeal);
    expect(appeal.map((c) => [c.label, c.party, c.kind])).toEqual([
      ['4', 'appellant', 'claim'],
      ['5', 'appellant', 'claim'],
      ['6', 'appellant', 'claim'],
      ['7', 'appellant', 'claim'],
      ['8', 'appellant', 'claim'],
      ['9', 'appellant', 'relief'],
      ['10', 'appellant', 'relief'],
    ]);
    const pages = await documentPageTexts(db, docs.appeal);
    for (const c of appeal) {
      expect(pages[c.page - 1]?.slice(c.start, c.end)).toBe(c.text);
      expect(c).toMatchObject({ status: 'candidate', origin: 'extracted', extractorVersion: 'claims@2' });
    }
    // The response's procedural paragraphs (1, 2) are not claims.
    expect((await rowsOf(docs.response)).map((c) => c.label)).toEqual(['3', '4', '5', '6']);
    expect((await rowsOf(docs.interim_decision)).map((c) => c.party)).toEqual([
      'appellant',
      'respondent',
      'third_party',
    ]);
  });

  it('refuses a document of another role, naming the way to correct it', async () => {
    const { docs } = await seedCaseFile(server().db.db, { names: ['deciding_appraisal'] });
    const env = await extract({ document_id: docs.deciding_appraisal });
    expect(errorCode(env)).toBe('invalid_args');
    expect(env.ok ? '' : env.error.message).toMatch(/deciding_appraisal/);
    expect(env.ok ? '' : env.error.hint).toMatch(/document_update/);
  });

  it('a re-run keeps every agent decision, recorded claim and argument, and replaces only its own candidates', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal'] });
    expectOk(await extract({ document_id: docs.appeal, wait_ms: 10_000 }));
    const list = async () =>
      expectOk<Claims>(await server().call('analyst', 'claim_list', { case_id: caseId, limit: 200 })).items;
    const [c4, c5, c6, c7, c8] = await list();
    if (!c4 || !c5 || !c6 || !c7 || !c8) throw new Error('expected the appeal’s claims');
    await record({ case_id: caseId, action: 'confirm', claim_id: c4.id });
    await record({
      case_id: caseId,
      action: 'reword',
      claim_id: c5.id,
      text: 'יש להחיל מקדם דחייה',
      rationale: 'תמצות',
    });
    await record({ case_id: caseId, action: 'reject', claim_id: c6.id, rationale: 'חוזר על טענה 4' });
    await record({
      case_id: caseId,
      action: 'merge',
      claim_id: c8.id,
      into_claim_id: c7.id,
      rationale: 'אותה טענה',
    });
    await record({
      case_id: caseId,
      action: 'add',
      party: 'appellant',
      text: 'המועד הקובע נקבע שלא כדין',
      document_id: docs.appeal,
      page: 2,
      quote: 'לקבוע את המועד הקובע כדין',
    });
    const before = await list();
    // A candidate the rules will no longer find where it was: one unused (it goes), one in an argument (it stays).
    const [, , , , , r9, r10] = await rowsOf(docs.appeal);
    if (!r9 || !r10) throw new Error('expected the relief requests');
    expectOk(
      await server().call('analyst', 'argument_aggregate', {
        case_id: caseId,
        arguments: [{ title: 'סעד', party: 'appellant', claim_ids: [r10.id] }],
      }),
    );
    await db
      .update(claims)
      .set({ start: r9.start + 1 })
      .where(eq(claims.id, r9.id));
    await db
      .update(claims)
      .set({ start: r10.start + 1 })
      .where(eq(claims.id, r10.id));
    await rerun(db, claimExtractor, docs.appeal);
    await rerun(db, claimExtractor, docs.appeal);
    const after = await list();
    const byId = new Map(after.map((c) => [c.id, c]));
    // Everything else is as it was (the two moved candidates aside: the test moved them).
    for (const c of before.filter((x) => x.id !== r9.id && x.id !== r10.id)) {
      expect(byId.get(c.id), c.label ?? '').toEqual(c);
    }
    expect(byId.has(r9.id)).toBe(false);
    expect(byId.get(r10.id)?.source.start).toBe(r10.start + 1);
    // r9 found again at its true offsets, as a new candidate; r10 kept (an argument uses it) and found again too.
    expect(after.filter((c) => c.label === '9' && c.status === 'candidate')).toHaveLength(1);
    expect(after.filter((c) => c.label === '10')).toHaveLength(2);
    expect(after).toHaveLength(before.length + 1);
  });

  it('refuses bad targets, and a deleted case is not_found with nothing written', async () => {
    const db = server().db.db;
    expect(errorCode(await extract({}))).toBe('invalid_args');
    expect(errorCode(await extract({ case_id: crypto.randomUUID() }))).toBe('not_found');
    const { caseId, docs } = await seedCaseFile(db, { names: ['appraisal_committee'] });
    expect(errorCode(await extract({ case_id: caseId }))).toBe('invalid_state');
    const other = await seedCaseFile(db, { names: ['appeal'] });
    await deleteCase(db, other.caseId);
    const before = await tableCounts(db);
    expect(errorCode(await extract({ case_id: other.caseId, wait_ms: 1000 }))).toBe('not_found');
    expect(errorCode(await extract({ document_id: other.docs.appeal, wait_ms: 1000 }))).toBe('not_found');
    expect(await tableCounts(db)).toEqual(before);
    expect(docs.appraisal_committee).toBeDefined();
  });
});

forEachStack('claim_extract under concurrency', ALL_STACKS, (server) => {
  it('20 identical calls at once: one job per document, each claim once', async () => {
    const { caseId, docs } = await seedCaseFile(server().db.db, { names: ['appeal', 'response'] });
    for (const a of await twentyAtOnce(server(), 'claim_extract', { case_id: caseId, wait_ms: 10_000 }))
      expectOk(a);
    const queued = await server()
      .db.db.select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'claim_extract')));
    for (const id of Object.values(docs))
      expect(queued.filter((j) => j.subject === `document:${id}`)).toHaveLength(1);
    expect(await server().db.db.select().from(claims).where(eq(claims.caseId, caseId))).toHaveLength(7 + 4);
  });
});

deniedTo('claim_extract', 'researcher', (c) => ({ case_id: c.caseId }));
