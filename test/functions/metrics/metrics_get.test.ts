// metrics_get: cases reaching each stage and the hours to it, the validation pass rate, the chair's edit
// ratio per kind of block, the extraction queue, a period that leaves old cases out; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { metrics_get } from '../../../functions/metrics/metrics_get.ts';
import type { workflow_status } from '../../../functions/workflow/workflow_status.ts';
import { localDay } from '../../../src/cases/schedule.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { cases } from '../../../src/db/schema/cases.ts';
import { draftExports, finalVersionBlocks, finalVersions } from '../../../src/db/schema/drafting.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { DB_STACKS, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase, textBytes } from '../../harness/documents.ts';
import { expectOk } from '../../harness/server.ts';
import { cleanBlocks, seedScenario, setOutcome, writeBlocks } from '../draft/_validate.ts';

type Data = ToolData<typeof metrics_get>;

forEachStack('metrics_get', DB_STACKS, (server) => {
  const get = async (args: Record<string, unknown> = {}) =>
    expectOk<Data>(await server().call('ceo', 'metrics_get', args));
  const reached = (d: Data, stage: string) => d.stages.find((s) => s.stage === stage)?.reached ?? -1;

  it('counts stages, the pass rate and the chair’s edit ratio per kind of block', async () => {
    const s = server();
    const before = await get();
    const a = await seedScenario(s);
    const b = await seedScenario(s);
    await writeBlocks(s, a.caseId, cleanBlocks(a));
    await setOutcome(s, a.caseId);
    expectOk(await s.call('qa', 'draft_validate', { case_id: a.caseId }));
    await writeBlocks(s, b.caseId, cleanBlocks(b, { outcome: { kind: 'outcome', text: 'הערר מתקבל.' } }));
    await setOutcome(s, b.caseId);
    expectOk(await s.call('qa', 'draft_validate', { case_id: b.caseId }));
    // The chair's final version of case a, as final_version_ingest stores it.
    const exportId = crypto.randomUUID();
    await s.db.db.insert(draftExports).values({
      id: exportId,
      caseId: a.caseId,
      blocksHash: exportId,
      sha256: exportId,
      byteSize: 1,
      content: new Uint8Array([1]),
      blocks: [],
      createdBy: 'writer',
    });
    const finalId = crypto.randomUUID();
    await s.db.db.insert(finalVersions).values({
      id: finalId,
      caseId: a.caseId,
      sha256: finalId,
      format: 'docx',
      exportId,
      text: 'x',
      createdBy: 'ceo',
    });
    const fb = (key: string, kind: 'discussion' | 'outcome', editRatio: number | null) => ({
      finalId,
      caseId: a.caseId,
      key,
      kind,
      exportedVersion: 1,
      exportedText: 'x',
      finalText: editRatio === null ? null : 'y',
      editRatio,
      changes: [],
      comments: [],
    });
    await s.db.db
      .insert(finalVersionBlocks)
      .values([
        fb('discussion', 'discussion', 0.2),
        fb('discussion:b', 'discussion', 0.4),
        fb('outcome', 'outcome', 0),
        fb('header', 'outcome', null),
      ]);

    const after = await get();
    expect(after.cases - before.cases).toBe(2);
    expect(reached(after, 'intake') - reached(before, 'intake')).toBe(2);
    expect(reached(after, 'documents') - reached(before, 'documents')).toBe(2);
    expect(reached(after, 'drafting') - reached(before, 'drafting')).toBe(2);
    expect(reached(after, 'validation') - reached(before, 'validation')).toBe(1);
    expect(reached(after, 'export') - reached(before, 'export')).toBe(1);
    expect(reached(after, 'final') - reached(before, 'final')).toBe(1);
    expect(after.stages.find((x) => x.stage === 'drafting')?.mean_hours).toEqual(expect.any(Number));
    expect(after.validation.runs - before.validation.runs).toBe(2);
    expect(after.validation.passed - before.validation.passed).toBe(1);
    expect(after.validation.pass_rate).toBeCloseTo(after.validation.passed / after.validation.runs, 3);
    expect(after.edit_ratio).toEqual(
      expect.arrayContaining([
        { kind: 'discussion', blocks: 2, mean: 0.3 },
        { kind: 'outcome', blocks: 1, mean: 0 },
      ]),
    );
    expect(after.queue).toMatchObject({ pending: expect.any(Number), dead: expect.any(Number) });
  });

  it('leaves out cases opened before the period', async () => {
    const s = server();
    const old = await seedScenario(s);
    await s.db.db
      .update(cases)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(cases.id, old.caseId));
    const all = await get();
    const month = await get({ period: '30d' });
    expect(month).toMatchObject({ period: '30d', since: expect.any(String) });
    expect(all.period).toBe('all');
    expect(all.since).toBeNull();
    expect(all.cases - month.cases).toBeGreaterThanOrEqual(1);
    expect((await s.call('ceo', 'metrics_get', { period: '1y' })).ok).toBe(false);
  });

  it('gives each case the stage workflow_status gives it: backlog, stages done, due dates', async () => {
    const s = server();
    // One document read and one still waiting: workflow_status says "documents" (not done), and so must metrics.
    const waiting = await seedScenario(s);
    await createDocument(s.db.db, {
      corpus: 'case',
      caseId: waiting.caseId,
      bytes: textBytes('תשובת המשיבה לערר, עדיין לא נקראה'),
      declaredMediaType: 'text/plain',
      title: 'תשובה',
      createdBy: 'test',
    });
    const empty = await seedCase(s.db.db);
    // Five days from today in Israel, as the tools count (from 22:00 UTC, Israel is already on the next day).
    const today = localDay(new Date());
    const due = new Date(Date.parse(`${today}T00:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
    expectOk(await s.call('ceo', 'case_dates_set', { case_id: empty, decision_due_date: due }));
    const m = await get();
    const live = await s.db.db.select().from(cases);
    const tally = new Map<string, number>();
    const done = new Map<string, number>();
    for (const c of live.filter((r) => r.deletedAt === null)) {
      const w = expectOk<ToolData<typeof workflow_status>>(
        await s.call('ceo', 'workflow_status', { case_id: c.id }),
      );
      for (const st of w.done) done.set(st, (done.get(st) ?? 0) + 1);
      if (w.stage !== 'final' && c.status !== 'decided' && c.status !== 'archived')
        tally.set(w.stage, (tally.get(w.stage) ?? 0) + 1);
      if (c.id === waiting.caseId) expect(w).toMatchObject({ stage: 'documents', done: ['intake'] });
      if (c.id === empty) expect(w.deadline).toMatchObject({ due_date: due, state: 'due_soon' });
    }
    for (const b of m.backlog) expect(b.cases, `backlog ${b.stage}`).toBe(tally.get(b.stage) ?? 0);
    for (const st of m.stages) expect(st.reached, `done ${st.stage}`).toBe(done.get(st.stage) ?? 0);
    expect(m.open.cases).toBe([...tally.values()].reduce((a, n) => a + n, 0));
    expect(m.open.max_age_days).toEqual(expect.any(Number));
    expect(m.due.cases).toContainEqual(
      expect.objectContaining({
        case_id: empty,
        stage: 'intake',
        due_date: due,
        days_left: 5,
        state: 'due_soon',
      }),
    );
    expect(m.due.due_soon).toBeGreaterThanOrEqual(1);
    expect(m.throughput.reduce((a, t) => a + t.opened, 0)).toBe(m.cases);
    expect(m.throughput.find((t) => t.practice_area === null)?.opened).toBeGreaterThanOrEqual(2);
    expect(m.edit_ratio_by_month).toEqual([
      { month: expect.stringMatching(/^\d{4}-\d{2}$/), blocks: 3, mean: expect.any(Number) },
    ]);
  });
});

deniedTo('metrics_get', 'writer', () => ({}));
