// A decision end to end through /mcp with the official client, as the agents work: a case opened and its
// appeal, response and deciding appraisal uploaded, the ruling added to the library with its number and
// parties, the queue drained, the claims and the appraisal's betterment extracted, each party's claim
// confirmed → arguments → a precedent pinned → a direction proposed and approved (the owner's ack) → blocks
// written → validation with findings → the fix → validation clean → export → the chair's edit of the exported
// DOCX (tracked changes, an added paragraph, a direct edit, a comment) ingested as the final version → edit
// ratios and revisions per block → the accepted-revisions text served, case decided, found by
// search_internal → the mission closed as completed by the criteria the server checks itself. On PGlite and
// on PostgreSQL.
import { expect, it } from 'vitest';
import { cleanBlocks, HOLDING, setOutcome, writeBlocks } from '../functions/draft/_validate.ts';
import { CHAIR, chairEdit, WHEN } from '../functions/final/_chair.ts';
import {
  closeMission,
  contract,
  DB_STACKS,
  DEVICE,
  forEachStack,
  gate,
  lease,
  type MissionData,
  uniq,
} from '../functions/hai/_hai.ts';
import { expectOk } from '../harness/server.ts';
import { buildCase } from './_decision.ts';

forEachStack('a decision end to end', DB_STACKS, (env) => {
  it('drafts, validates, exports, takes the final version back and closes the mission', async () => {
    const e = env();
    const s = e.s;
    // The case as the agents build it, through the tools only (test/e2e/_decision.ts).
    const sc = await buildCase(s);

    // The mission, on a project bound to the case, with three criteria the server checks.
    const projectId = uniq('proj');
    expectOk(
      await s.call('ceo', 'hai_bind_project', {
        project_id: projectId,
        device_id: DEVICE,
        mount_path: `/p/${projectId}`,
        case_id: sc.caseId,
        ...gate,
      }),
    );
    const check = (id: string) => ({
      id,
      description: `${id} holds`,
      verification: 'the server checks it',
      check: { kind: id, case_id: sc.caseId },
    });
    const mission = expectOk<MissionData>(
      await s.call('ceo', 'hai_open_mission', {
        name: uniq('m'),
        title: 'החלטה בערר',
        project_id: projectId,
        ...contract(e.clock, {
          criteria: [check('draft_valid'), check('exported'), check('final_ingested')],
          in_scope: ['drafting'],
          out_of_scope: [],
        }),
      }),
    ).mission;

    // Claims and arguments, a precedent pinned, a direction proposed and approved, the outcome set.
    const claims = expectOk<{ items: { id: string; party: string }[] }>(
      await s.call('analyst', 'claim_list', { case_id: sc.caseId, status: 'confirmed' }),
    ).items;
    expect(claims.map((c) => c.id).sort()).toEqual([...sc.claimIds].sort());
    expectOk(
      await s.call('analyst', 'argument_aggregate', {
        case_id: sc.caseId,
        arguments: claims.map((c) => ({
          title: c.party === 'appellant' ? 'השומה שגויה' : 'השומה סבירה',
          party: c.party,
          claim_ids: [c.id],
        })),
      }),
    );
    expectOk(
      await s.call('researcher', 'precedent_attach', {
        case_id: sc.caseId,
        section: 'discussion',
        citation: 'עע"מ 9001/19 כהן נ\' הוועדה המקומית לתכנון ובנייה הרצליה',
        quote: HOLDING,
        document_id: sc.rulingId,
      }),
    );
    const direction = expectOk<{ direction: { id: string } }>(
      await s.call('ceo', 'direction_propose', {
        case_id: sc.caseId,
        title: 'דחיית הערר',
        rationale: 'אין עילה להתערב בשומת השמאי המכריע',
        outcome: 'rejection',
      }),
    ).direction;
    expectOk(await s.call('ceo', 'direction_approve', { direction_id: direction.id, ...gate }));
    await setOutcome(s, sc.caseId);
    const context = expectOk<{ items: { section: string }[] }>(
      await s.call('writer', 'block_context_get', { case_id: sc.caseId, block: 'discussion', limit: 200 }),
    );
    expect(context.items.some((i) => i.section === 'precedent')).toBe(true);

    // A first draft with an invented authority: validation finds it.
    await writeBlocks(
      s,
      sc.caseId,
      cleanBlocks(sc, {
        discussion: {
          kind: 'discussion',
          title: 'התערבות בשומה',
          text: 'כפי שנקבע בעע״מ 1234/05 דוד נ׳ גוליית, לא מצאנו פגם.',
          claim_ids: sc.claimIds,
        },
      }),
    );
    const first = expectOk<{ valid: boolean; findings: { code: string }[] }>(
      await s.call('qa', 'draft_validate', { case_id: sc.caseId }),
    );
    expect(first.valid).toBe(false);
    expect(first.findings.map((f) => f.code)).toContain('citation_not_found');

    // The fix: a clean validation, then the export.
    await writeBlocks(
      s,
      sc.caseId,
      cleanBlocks(sc).filter((b) => b.kind === 'discussion'),
    );
    const clean = expectOk<{ valid: boolean; findings: unknown[] }>(
      await s.call('qa', 'draft_validate', { case_id: sc.caseId }),
    );
    expect(clean.findings).toEqual([]);
    expect(clean.valid).toBe(true);
    const exported = expectOk<{ export_id: string; content_base64: string | null }>(
      await s.call('writer', 'draft_export', { case_id: sc.caseId, wait_ms: 10_000 }),
    );
    expect(exported.content_base64).not.toBeNull();

    // The chair edits the export as Word records it: a span replaced with tracked changes in one block, a
    // tracked paragraph added inside the header, a direct edit in a third, a comment on a fourth — then signs it.
    const edited = await chairEdit(new Uint8Array(Buffer.from(exported.content_base64 ?? '', 'base64')), {
      tracked: { find: '1,250,000', replace: '1,300,000' },
      added: { after: 'ועדת הערר לתכנון ובנייה מחוז תל אביב', text: 'יו״ר הוועדה: עו״ד דנה לוי' },
      direct: { find: 'סוף דבר: הערר נדחה.', replace: 'סוף דבר: הערר נדחה במלואו.' },
      comment: { on: 'העוררים טוענים כי השומה שגויה.', text: 'לפרט את טענות העוררים.' },
    });
    const final = expectOk<{
      format: string;
      export_id: string | null;
      document_id: string | null;
      blocks: { key: string; found: boolean; edit_ratio: number | null }[];
      changes: { block: string; type: string; author: string | null; date: string | null; text: string }[];
      comments: { block: string; author: string | null; text: string }[];
    }>(
      await s.call('ceo', 'final_version_ingest', {
        case_id: sc.caseId,
        content_base64: Buffer.from(edited).toString('base64'),
        ...gate,
      }),
    );
    expect(final).toMatchObject({ format: 'docx', export_id: exported.export_id });
    expect(final.blocks.every((b) => b.found)).toBe(true);
    const ratio = Object.fromEntries(final.blocks.map((b) => [b.key, b.edit_ratio]));
    const editedKeys = ['header', 'background', 'outcome'];
    for (const key of editedKeys) expect(ratio[key], key).toBeGreaterThan(0);
    for (const b of final.blocks.filter((x) => !editedKeys.includes(x.key)))
      expect(b.edit_ratio, b.key).toBe(0);
    expect(final.changes).toEqual([
      { block: 'header', type: 'insertion', author: CHAIR, date: WHEN, text: 'יו״ר הוועדה: עו״ד דנה לוי' },
      { block: 'background', type: 'deletion', author: CHAIR, date: WHEN, text: '1,250,000' },
      { block: 'background', type: 'insertion', author: CHAIR, date: WHEN, text: '1,300,000' },
    ]);
    expect(final.comments).toMatchObject([
      { block: 'appellant_claims', author: CHAIR, text: 'לפרט את טענות העוררים.' },
    ]);
    // The final text served is the accepted-revisions text: every tracked change and the direct edit taken.
    const served = expectOk<{ final_text: string | null }>(
      await s.call('writer', 'case_final_text_get', { case_id: sc.caseId }),
    );
    expect(served.final_text).toContain(
      'ועדת הערר לתכנון ובנייה מחוז תל אביב\n\nיו״ר הוועדה: עו״ד דנה לוי\n\n',
    );
    expect(served.final_text).toContain('1. השמאי המכריע קבע כי שווי ההשבחה הוא 1,300,000 ש״ח.');
    expect(served.final_text).not.toContain('1,250,000');
    expect(served.final_text).toContain('5. סוף דבר: הערר נדחה במלואו.');
    expect(served.final_text).toContain('לא מצאנו פגם כזה');
    const caseRow = expectOk<{ case: { status: string } }>(
      await s.call('writer', 'case_get', { case_id: sc.caseId }),
    );
    expect(caseRow.case.status).toBe('decided');
    // Its text is extracted and indexed by the queue like any upload.
    expectOk(await s.call('ceo', 'extraction_run', { max_jobs: 20 }));
    const found = expectOk<{ items: { document_id: string }[] }>(
      await s.call('researcher', 'search_internal', { query: 'התערבות בשומה פגם מהותי' }),
    );
    expect(found.items.map((i) => i.document_id)).toContain(final.document_id);

    // The criteria, proven by the server's checks, and the mission closed as completed.
    const l = await lease(e, 'qa', mission.id);
    for (const id of ['draft_valid', 'exported', 'final_ingested']) {
      const proof = expectOk<{ proof: { result: string; evidence: string | null } }>(
        await s.call('qa', 'hai_proof', {
          lease_id: l.lease_id,
          criterion_id: id,
          checked: `checked ${id}`,
          device_id: DEVICE,
        }),
      );
      expect([id, proof.proof.result, proof.proof.evidence]).toEqual([id, 'pass', expect.any(String)]);
    }
    const closed = expectOk<{ mission: { state: string } }>(await closeMission(e, mission.id, 'completed'));
    expect(closed.mission.state).toBe('completed');
  }, 60_000);
});
