// C7 and C8 through the official client on both eras: tools/list shows exactly the caller's grants in a
// stable order, other tools are tool_not_granted, the owner gate holds, annotations are derived, and
// every mutating call leaves one audit row.
import type { Client } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, type AgentName } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';

const envelopeOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  result.structuredContent as unknown as Envelope;

describe('C7 grants and gates, C8 declared behaviour', () => {
  let s: TestServer;
  let grants: Map<string, string[]>;
  beforeAll(async () => {
    s = await startTestServer();
    const agents = await loadAgentsFromDir('agents');
    grants = new Map([...agents.values()].map((a) => [a.name, a.tools]));
  });
  afterAll(async () => s?.close());

  const auditFor = (requestId: string) =>
    s.db.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));

  describe('tools/list', () => {
    it.each(AGENT_NAMES)(
      '%s sees exactly its grants, sorted, the same on repeats and in both eras',
      async (agent) => {
        const expected = [...(grants.get(agent) ?? [])].sort();
        expect(expected.length).toBeGreaterThan(0);
        const legacy = await s.connect(agent, { era: 'legacy' });
        const modern = await s.connect(agent, { era: 'modern' });
        const listings = [
          await legacy.listTools(),
          await legacy.listTools(),
          await modern.listTools(),
          await modern.listTools(),
        ];
        const first = listings[0];
        expect(first?.tools.map((t) => t.name)).toEqual(expected);
        for (const listing of listings) expect(listing.tools).toEqual(first?.tools);
      },
    );

    it('the listings differ between agents (qa is not shown case_create or case_delete)', async () => {
      const qa = await (await s.connect('qa', { era: 'modern' })).listTools();
      const names = qa.tools.map((t) => t.name);
      expect(names).not.toContain('case_create');
      expect(names).not.toContain('case_delete');
    });

    it('annotations are derived from the definitions: read-only, destructive, idempotent, closed world', async () => {
      const { tools } = await (await s.connect('ceo', { era: 'legacy' })).listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const expectations: Record<string, { readOnlyHint: boolean; destructiveHint: boolean }> = {
        case_create: { readOnlyHint: false, destructiveHint: false },
        case_update: { readOnlyHint: false, destructiveHint: false },
        case_dates_set: { readOnlyHint: false, destructiveHint: false },
        case_panel_set: { readOnlyHint: false, destructiveHint: false },
        case_delete: { readOnlyHint: false, destructiveHint: true },
        case_get: { readOnlyHint: true, destructiveHint: false },
        case_list: { readOnlyHint: true, destructiveHint: false },
        case_final_text_get: { readOnlyHint: true, destructiveHint: false },
        extraction_status: { readOnlyHint: true, destructiveHint: false },
        extraction_run: { readOnlyHint: false, destructiveHint: false },
        hai_status: { readOnlyHint: true, destructiveHint: false },
        hai_recover: { readOnlyHint: true, destructiveHint: false },
        hai_health: { readOnlyHint: true, destructiveHint: false },
        hai_get_next_step: { readOnlyHint: true, destructiveHint: false },
        hai_read_artifacts: { readOnlyHint: true, destructiveHint: false },
        hai_park: { readOnlyHint: false, destructiveHint: false },
        hai_inbox_list: { readOnlyHint: true, destructiveHint: false },
        hai_authorize_session: { readOnlyHint: false, destructiveHint: false },
        hai_set_focus: { readOnlyHint: false, destructiveHint: false },
        hai_propose_next_step: { readOnlyHint: false, destructiveHint: false },
        hai_accept_next_step: { readOnlyHint: false, destructiveHint: false },
        hai_checkpoint: { readOnlyHint: false, destructiveHint: false },
        hai_bind_project: { readOnlyHint: false, destructiveHint: false },
        hai_open_mission: { readOnlyHint: false, destructiveHint: false },
        hai_park_item: { readOnlyHint: false, destructiveHint: false },
        // They revoke every session lease of the mission.
        hai_recontract: { readOnlyHint: false, destructiveHint: true },
        hai_close_mission: { readOnlyHint: false, destructiveHint: true },
        document_list: { readOnlyHint: true, destructiveHint: false },
        document_update: { readOnlyHint: false, destructiveHint: false },
        document_upload: { readOnlyHint: false, destructiveHint: false },
        document_delete: { readOnlyHint: false, destructiveHint: true },
        document_extract: { readOnlyHint: false, destructiveHint: false },
        internal_decision_add: { readOnlyHint: false, destructiveHint: false },
        reference_list: { readOnlyHint: true, destructiveHint: false },
        claim_list: { readOnlyHint: true, destructiveHint: false },
        argument_list: { readOnlyHint: true, destructiveHint: false },
        appraiser_fact_get: { readOnlyHint: true, destructiveHint: false },
        block_write: { readOnlyHint: false, destructiveHint: false },
        block_list: { readOnlyHint: true, destructiveHint: false },
        block_edit_apply: { readOnlyHint: false, destructiveHint: false },
        block_context_get: { readOnlyHint: true, destructiveHint: false },
        draft_get: { readOnlyHint: true, destructiveHint: false },
        draft_export: { readOnlyHint: false, destructiveHint: false },
        draft_bookmark_list: { readOnlyHint: true, destructiveHint: false },
        final_version_ingest: { readOnlyHint: false, destructiveHint: false },
        library_list: { readOnlyHint: true, destructiveHint: false },
        library_get: { readOnlyHint: true, destructiveHint: false },
        internal_decision_list: { readOnlyHint: true, destructiveHint: false },
        internal_decision_get: { readOnlyHint: true, destructiveHint: false },
        citation_list: { readOnlyHint: true, destructiveHint: false },
        citation_incoming_list: { readOnlyHint: true, destructiveHint: false },
        missing_precedent_list: { readOnlyHint: true, destructiveHint: false },
        halacha_list: { readOnlyHint: true, destructiveHint: false },
        halacha_review: { readOnlyHint: false, destructiveHint: false },
        precedent_list: { readOnlyHint: true, destructiveHint: false },
        style_corpus_pending_list: { readOnlyHint: true, destructiveHint: false },
        direction_propose: { readOnlyHint: false, destructiveHint: false },
        direction_list: { readOnlyHint: true, destructiveHint: false },
        direction_approve: { readOnlyHint: false, destructiveHint: false },
        outcome_set: { readOnlyHint: false, destructiveHint: false },
        feedback_record: { readOnlyHint: false, destructiveHint: false },
        feedback_list: { readOnlyHint: true, destructiveHint: false },
        workflow_status: { readOnlyHint: true, destructiveHint: false },
        metrics_get: { readOnlyHint: true, destructiveHint: false },
      };
      expect([...byName.keys()].sort()).toEqual(Object.keys(expectations).sort());
      for (const [name, hints] of Object.entries(expectations)) {
        const tool = byName.get(name);
        // Explicit where the spec defaults (destructive, not idempotent, open world) would be wrong: a writer
        // declares all four; a reader declares read-only and closed world (the other two mean nothing for it).
        expect(tool?.annotations).toEqual(
          hints.readOnlyHint
            ? { readOnlyHint: true, openWorldHint: false }
            : { destructiveHint: hints.destructiveHint, idempotentHint: true, openWorldHint: false },
        );
        expect(tool?.outputSchema).toMatchObject({ type: 'object', properties: { ok: {}, status: {} } });
      }
    });
  });

  describe.each(['legacy', 'modern'] as const)('calls [%s era]', (era) => {
    const clientFor = (agent: AgentName, requestId?: string) =>
      s.connect(agent, { era, ...(requestId ? { headers: { 'x-request-id': requestId } } : {}) });

    it('calling a tool that is not granted is tool_not_granted (a tool result) and changes nothing', async () => {
      const caseNumber = `GRANT-${era}-analyst`;
      const requestId = `grant-${era}-denied`;
      const analyst = await clientFor('analyst', requestId);
      const result = await analyst.callTool({
        name: 'case_create',
        arguments: { case_number: caseNumber, title: 't' },
      });
      expect(result.isError).toBe(true);
      expect(envelopeOf(result)).toMatchObject({
        status: 'error',
        error: { code: 'tool_not_granted', details: { agent: 'analyst', tool: 'case_create' } },
      });
      expect(await s.db.db.select().from(cases).where(eq(cases.caseNumber, caseNumber))).toHaveLength(0);
      const audit = await auditFor(requestId);
      expect(audit).toMatchObject([
        { agent: 'analyst', tool: 'case_create', outcome: 'error', errorCode: 'tool_not_granted' },
      ]);
      // Granted tools still work for the same caller.
      expectOk(envelopeOf(await analyst.callTool({ name: 'case_list', arguments: {} })));
    });

    it('an ungranted tool is refused before its arguments are even looked at', async () => {
      const qa = await clientFor('qa');
      const env = envelopeOf(await qa.callTool({ name: 'case_delete', arguments: { bogus: true } }));
      expect(errorCode(env)).toBe('tool_not_granted');
    });

    it('the owner gate: no ack, or an ack without a reason, is owner_gate_required; with both the call runs', async () => {
      const ceo = await clientFor('ceo');
      const created = expectOk<{ case: { id: string } }>(
        envelopeOf(
          await ceo.callTool({
            name: 'case_create',
            arguments: { case_number: `GATE-${era}`, title: 'לשער' },
          }),
        ),
      );
      const caseId = created.case.id;
      const attempts: [Record<string, unknown>, string[]][] = [
        [{}, ['owner_ack: true', 'reason']],
        [{ owner_ack: false, reason: 'the chair said so' }, ['owner_ack: true']],
        [{ owner_ack: true }, ['reason']],
        [{ owner_ack: true, reason: '   ' }, ['reason']],
      ];
      for (const [gate, missing] of attempts) {
        const result = await ceo.callTool({ name: 'case_delete', arguments: { case_id: caseId, ...gate } });
        expect(result.isError).toBe(true);
        expect(envelopeOf(result)).toMatchObject({
          error: { code: 'owner_gate_required', details: { missing } },
        });
      }
      // Still there: no refused attempt touched it.
      expectOk(envelopeOf(await ceo.callTool({ name: 'case_get', arguments: { case_id: caseId } })));

      const requestId = `gate-${era}-approved`;
      const approved = await clientFor('ceo', requestId);
      const reason = 'היו"ר אישר מחיקה: תיק כפול';
      const deleted = envelopeOf(
        await approved.callTool({
          name: 'case_delete',
          arguments: { case_id: caseId, owner_ack: true, reason },
        }),
      );
      expect(deleted).toMatchObject({ ok: true, data: { case_id: caseId } });
      // Ack, reason and agent go to the audit log.
      expect(await auditFor(requestId)).toMatchObject([
        {
          agent: 'ceo',
          tool: 'case_delete',
          idempotencyKey: caseId,
          outcome: 'ok',
          ownerAck: true,
          ownerReason: reason,
        },
      ]);
      // C7 reachability: a deleted case is not_found for every tool that addresses it.
      for (const name of ['case_get', 'case_final_text_get']) {
        expect(errorCode(envelopeOf(await ceo.callTool({ name, arguments: { case_id: caseId } })))).toBe(
          'not_found',
        );
      }
      const update = envelopeOf(
        await ceo.callTool({ name: 'case_update', arguments: { case_id: caseId, title: 'x' } }),
      );
      expect(errorCode(update)).toBe('not_found');
    });

    it('an archived case is read-only: invalid_state until its status is set back', async () => {
      const ceo = await clientFor('ceo');
      const { case: c } = expectOk<{ case: { id: string } }>(
        envelopeOf(
          await ceo.callTool({
            name: 'case_create',
            arguments: { case_number: `ARCH-${era}`, title: 'ארכיון' },
          }),
        ),
      );
      expectOk(
        envelopeOf(
          await ceo.callTool({ name: 'case_update', arguments: { case_id: c.id, status: 'archived' } }),
        ),
      );
      const refused = envelopeOf(
        await ceo.callTool({ name: 'case_update', arguments: { case_id: c.id, notes: 'n' } }),
      );
      expect(refused).toMatchObject({ error: { code: 'invalid_state', details: { status: 'archived' } } });
      expectOk(
        envelopeOf(
          await ceo.callTool({ name: 'case_update', arguments: { case_id: c.id, status: 'decided' } }),
        ),
      );
      expectOk(
        envelopeOf(await ceo.callTool({ name: 'case_update', arguments: { case_id: c.id, notes: 'n' } })),
      );
    });

    it('one audit row per mutating call, with its outcome; none for reads', async () => {
      const calls: [AgentName, string, Record<string, unknown>, Partial<typeof auditLog.$inferSelect>][] = [
        [
          'ceo',
          'case_create',
          { case_number: `AUDIT-${era}`, title: 'ביקורת' },
          { outcome: 'ok', errorCode: null },
        ],
        ['ceo', 'case_create', { case_number: `AUDIT-${era}`, title: 'ביקורת' }, { outcome: 'replayed' }],
        [
          'ceo',
          'case_create',
          { case_number: `AUDIT-${era}`, title: 'אחרת' },
          { errorCode: 'idempotency_key_reuse' },
        ],
        [
          'ceo',
          'case_create',
          { case_number: `AUDIT-${era}` },
          { outcome: 'error', errorCode: 'invalid_args' },
        ],
        ['ceo', 'case_update', { case_id: crypto.randomUUID(), title: 'x' }, { errorCode: 'not_found' }],
      ];
      for (const [i, [agent, name, args, expected]] of calls.entries()) {
        const requestId = `audit-${era}-${i}`;
        await (await clientFor(agent, requestId)).callTool({ name, arguments: args });
        const rows = await auditFor(requestId);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ agent, tool: name, requestId, ...expected });
        expect(rows[0]?.durationMs).toBeGreaterThanOrEqual(0);
      }
      const readId = `audit-${era}-read`;
      const reader = await clientFor('ceo', readId);
      await reader.callTool({ name: 'case_list', arguments: {} });
      await reader.callTool({ name: 'case_get', arguments: { case_id: crypto.randomUUID() } });
      expect(await auditFor(readId)).toHaveLength(0);
    });
  });
});
