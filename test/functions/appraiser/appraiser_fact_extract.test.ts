// appraiser_fact_extract: the facts of the three appraisals with their appraisers, normalised values and
// provenance, the levy flag; only appraisals are read; a role corrected by an agent re-runs (or drops) the
// facts; a re-run keeps the rows; the refusals; a deleted case; 20 identical calls at once; no grant.
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { appraiser_fact_extract } from '../../../functions/appraiser/appraiser_fact_extract.ts';
import { factExtractor } from '../../../src/analysis/extractors.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { appraisalFacts } from '../../../src/db/schema/analysis.ts';
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

type Data = ToolData<typeof appraiser_fact_extract>;
const APPRAISALS = ['appraisal_appellants', 'appraisal_committee', 'deciding_appraisal'] as const;
/** The documents the fact reader reads: the appraisals (the interim decision is no decision: no sums of its own). */
const READ = APPRAISALS;

forEachStack('appraiser_fact_extract', DB_STACKS, (server) => {
  const extract = (args: Record<string, unknown>) => server().call('analyst', 'appraiser_fact_extract', args);
  const factsOf = (documentId: string) =>
    server()
      .db.db.select()
      .from(appraisalFacts)
      .where(eq(appraisalFacts.documentId, documentId))
      .orderBy(asc(appraisalFacts.page), asc(appraisalFacts.start));

  it('reads the appraisals and the decision: appraisers, values in agorot, dates, the levy flag, offsets', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db);
    const env = await extract({ case_id: caseId, wait_ms: 10_000 });
    const data = expectOk<Data>(env);
    expect(data).toMatchObject({ done: true, summary: { facts: 26, flagged: 1 } });
    expect(env.message).toMatch(/26 facts in 3 document\(s\), 1 flagged/);
    expect(data.jobs.map((j) => j.document_id).sort()).toEqual(READ.map((n) => docs[n]).sort());
    const deciding = await factsOf(docs.deciding_appraisal);
    expect(deciding.every((f) => f.appraiserName === 'מיכאל ברנע' && f.appraiserRole === 'deciding')).toBe(
      true,
    );
    expect(deciding.find((f) => f.kind === 'value_new')).toMatchObject({
      value: 495_000_000,
      unit: 'agorot',
      page: 2,
    });
    expect(deciding.find((f) => f.kind === 'levy')).toMatchObject({ note: 'levy_not_half' });
    const committee = await factsOf(docs.appraisal_committee);
    expect(committee[0]).toMatchObject({
      appraiserRole: 'committee',
      parcel: 'גוש 6638 חלקה 12',
      plan: 'הצ/1-4/1250',
    });
    for (const name of APPRAISALS) {
      const pages = await documentPageTexts(db, docs[name]);
      for (const f of await factsOf(docs[name]))
        expect(pages[f.page - 1]?.slice(f.start, f.end)).toBe(f.text);
    }
  });

  it('reads only appraisals, and follows an agent’s correction of a role', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal', 'appraisal_committee'] });
    const refused = await extract({ document_id: docs.appeal });
    expect(errorCode(refused)).toBe('invalid_args');
    expect(refused.ok ? '' : refused.error.message).toMatch(/role is appeal/);
    expectOk(await extract({ case_id: caseId, wait_ms: 10_000 }));
    const before = await factsOf(docs.appraisal_committee);
    expect(before).toHaveLength(8);
    await rerun(db, factExtractor, docs.appraisal_committee);
    expect(await factsOf(docs.appraisal_committee)).toEqual(before);
    // Not an appraisal after all: its facts go. An appraisal again: read again (its job back to pending).
    expectOk(
      await server().call('analyst', 'document_update', {
        document_id: docs.appraisal_committee,
        role: 'other',
      }),
    );
    expect(await factsOf(docs.appraisal_committee)).toEqual([]);
    expectOk(
      await server().call('analyst', 'document_update', {
        document_id: docs.appraisal_committee,
        role: 'appraisal',
      }),
    );
    const [job] = await db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, 'appraiser_fact_extract'),
          eq(jobs.subject, `document:${docs.appraisal_committee}`),
        ),
      );
    expect(job?.state).toBe('pending');
    expectOk(await extract({ document_id: docs.appraisal_committee, wait_ms: 10_000 }));
    expect((await factsOf(docs.appraisal_committee)).map((f) => [f.kind, f.value])).toEqual(
      before.map((f) => [f.kind, f.value]),
    );
  });

  it('refuses bad targets; a deleted case is not_found with nothing written', async () => {
    const db = server().db.db;
    expect(errorCode(await extract({}))).toBe('invalid_args');
    expect(errorCode(await extract({ document_id: crypto.randomUUID() }))).toBe('not_found');
    const { caseId } = await seedCaseFile(db, { names: ['response'] });
    const none = await extract({ case_id: caseId });
    expect(errorCode(none)).toBe('invalid_state');
    expect(none.ok ? '' : none.error.hint).toMatch(/appraisals/);
    const gone = await seedCaseFile(db, { names: ['deciding_appraisal'] });
    await deleteCase(db, gone.caseId);
    const before = await tableCounts(db);
    expect(errorCode(await extract({ case_id: gone.caseId, wait_ms: 1000 }))).toBe('not_found');
    expect(errorCode(await extract({ document_id: gone.docs.deciding_appraisal, wait_ms: 1000 }))).toBe(
      'not_found',
    );
    expect(await tableCounts(db)).toEqual(before);
  });
});

forEachStack('appraiser_fact_extract under concurrency', ALL_STACKS, (server) => {
  it('20 identical calls at once: one job per appraisal, each fact once', async () => {
    const { caseId } = await seedCaseFile(server().db.db, { names: [...APPRAISALS] });
    for (const a of await twentyAtOnce(server(), 'appraiser_fact_extract', {
      case_id: caseId,
      wait_ms: 10_000,
    }))
      expectOk(a);
    expect(
      await server().db.db.select().from(jobs).where(eq(jobs.kind, 'appraiser_fact_extract')),
    ).toHaveLength(3);
    expect(
      await server().db.db.select().from(appraisalFacts).where(eq(appraisalFacts.caseId, caseId)),
    ).toHaveLength(26);
  });
});

deniedTo('appraiser_fact_extract', 'qa', (c) => ({ case_id: c.caseId }));
