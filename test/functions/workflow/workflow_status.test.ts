// workflow_status: a case walked from intake to a validated draft, the stage and the next actions at each
// step (each naming a tool its agent holds), a validation made stale by a later block; failed documents read
// again or removed; deleted case; no grant.
import { expect, it } from 'vitest';
import { tools } from '../../../functions/index.ts';
import type { workflow_status } from '../../../functions/workflow/workflow_status.ts';
import { loadAgentsFromDir } from '../../../src/agents/load_node.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { argumentClaims, argumentMaps, caseArguments } from '../../../src/db/schema/analysis.ts';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { approve, propose } from '../direction/_directions.ts';
import { cleanBlocks, seedScenario, setOutcome, writeBlocks } from '../draft/_validate.ts';

type Data = ToolData<typeof workflow_status>;

/** Tools of the drafting family not in this registry yet: named in next actions before they land. */
const PENDING = new Set(['draft_export', 'final_version_ingest']);

forEachStack('workflow_status', DB_STACKS, (server) => {
  const status = async (caseId: string) => {
    const d = expectOk<Data>(await server().call('writer', 'workflow_status', { case_id: caseId }));
    const agents = await loadAgentsFromDir('agents');
    for (const a of d.next_actions) {
      if (PENDING.has(a.tool) && !(a.tool in tools)) continue;
      expect(agents.get(a.agent)?.tools, `${a.agent} ${a.tool}`).toContain(a.tool);
    }
    return d;
  };
  const actions = (d: Data) => d.next_actions.map((a) => `${a.agent} ${a.tool}`);

  it('walks a case from intake to a validated draft, naming the next action at each stage', async () => {
    const s = server();
    const empty = await status(await seedCase(s.db.db));
    expect(empty).toMatchObject({
      stage: 'intake',
      done: [],
      documents: { total: 0 },
      validation: null,
      export: null,
    });
    expect(actions(empty)).toEqual(['ceo document_upload']);

    const sc = await seedScenario(s);
    const analysed = await status(sc.caseId);
    expect(analysed).toMatchObject({
      stage: 'analysis',
      done: ['intake', 'documents'],
      documents: { total: 1, ready: 1 },
      analysis: { confirmed: 2, arguments: 0, facts: 1 },
    });
    expect(actions(analysed)).toEqual(['analyst argument_aggregate']);

    const mapId = crypto.randomUUID();
    const argumentId = crypto.randomUUID();
    await s.db.db
      .insert(argumentMaps)
      .values({ id: mapId, caseId: sc.caseId, version: 1, contentHash: mapId, createdBy: 'analyst' });
    await s.db.db
      .insert(caseArguments)
      .values({ id: argumentId, mapId, position: 1, title: 'השומה', party: 'appellant' });
    await s.db.db
      .insert(argumentClaims)
      .values(sc.claimIds.map((claimId, i) => ({ mapId, argumentId, claimId, position: i })));
    expect(actions(await status(sc.caseId))).toEqual(['researcher search_library', 'ceo direction_propose']);
    const d = await propose(s, sc.caseId, { argument_ids: [argumentId] });
    expect(actions(await status(sc.caseId))).toContain('ceo direction_approve');
    expectOk(await approve(s, d.id));

    const drafting = await status(sc.caseId);
    expect(drafting).toMatchObject({
      stage: 'drafting',
      direction: { proposed: 1, approved: { id: d.id, outcome: 'rejection' } },
      outcome: null,
    });
    expect(drafting.blocks.missing).toEqual([
      'header',
      'background',
      'appellant_claims',
      'respondent_claims',
      'discussion',
      'outcome',
      'signature',
    ]);
    expect(actions(drafting)).toEqual(['writer block_context_get', 'writer block_write', 'ceo outcome_set']);

    await writeBlocks(s, sc.caseId, cleanBlocks(sc));
    await setOutcome(s, sc.caseId);
    const written = await status(sc.caseId);
    expect(written).toMatchObject({
      stage: 'validation',
      blocks: { written: 7, missing: [] },
      outcome: 'rejection',
    });
    expect(actions(written)).toEqual(['qa draft_validate']);

    const run = expectOk<{ run_id: string }>(await s.call('qa', 'draft_validate', { case_id: sc.caseId }));
    const valid = await status(sc.caseId);
    expect(valid).toMatchObject({
      stage: 'export',
      validation: { run_id: run.run_id, valid: true, current: true },
    });
    expect(actions(valid)).toEqual(['writer draft_export', 'ceo final_version_ingest']);

    // A block written after the validation makes it stale: validate again.
    await writeBlocks(s, sc.caseId, [{ kind: 'costs', text: 'אין צו להוצאות.' }]);
    const stale = await status(sc.caseId);
    expect(stale).toMatchObject({ stage: 'validation', validation: { current: false } });
    expect(actions(stale)).toEqual(['qa draft_validate']);

    // A failed validation sends the writer to fix it.
    await writeBlocks(s, sc.caseId, [{ kind: 'outcome', text: 'סוף דבר: הערר מתקבל.' }]);
    expectOk(await s.call('qa', 'draft_validate', { case_id: sc.caseId }));
    const failed = await status(sc.caseId);
    expect(failed).toMatchObject({ stage: 'validation', validation: { valid: false, current: true } });
    expect(actions(failed)).toEqual(['writer block_edit_apply']);
  });

  it('advises reading a failed document again or removing it, and counts a removed one nowhere', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const upload = (args: Record<string, unknown>) =>
      s.call('ceo', 'document_upload', { corpus: 'case', case_id: caseId, ...args });
    const broken = expectOk<{ document: { id: string } }>(
      await upload({ content_base64: Buffer.from('%PDF-1.7\n%broken').toString('base64'), title: 'פגום' }),
    ).document.id;
    expectOk(await upload({ text: 'כתב הערר: המערערים טוענים כי השומה שגויה.', title: 'ערר' }));
    const waiting = await status(caseId);
    expect(waiting).toMatchObject({ stage: 'documents', documents: { total: 2, pending: 2 } });
    expect(actions(waiting)).toEqual(['ceo extraction_status']);
    await drainAll(s);
    const failed = await status(caseId);
    expect(failed).toMatchObject({ stage: 'documents', documents: { total: 2, ready: 1, failed: 1 } });
    expect(actions(failed)).toEqual(['ceo document_extract', 'ceo document_delete']);
    expect(failed.next_actions.map((a) => a.why).join(' ')).not.toMatch(/upload them again/);
    expectOk(await s.call('ceo', 'document_delete', { document_id: broken, reason: 'קובץ פגום' }));
    const removed = await status(caseId);
    expect(removed).toMatchObject({ documents: { total: 1, ready: 1, failed: 0 } });
    expect(removed.done).toContain('documents');
  });

  it('answers not_found for unknown and deleted cases', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    expect(errorCode(await s.call('qa', 'workflow_status', { case_id: crypto.randomUUID() }))).toBe(
      'not_found',
    );
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await s.call('qa', 'workflow_status', { case_id: caseId }))).toBe('not_found');
  });
});

deniedTo('workflow_status', 'researcher', (c) => ({ case_id: c.caseId }), true);
