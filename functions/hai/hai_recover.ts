import { and, desc, eq, inArray } from 'drizzle-orm';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { haiCheckpoints, haiProposals } from '../../src/db/schema/hai.ts';
import { loadProject, projectIdInput } from './_shared.ts';
import { activeMissions } from './_state.ts';

/** A live lease this close to its end is reported as expiring. */
const EXPIRING_MS = 10 * 60 * 1000;
const STALE_SHOWN = 20;

interface Advice {
  kind:
    | 'mission_expired'
    | 'lease_stale'
    | 'lease_expiring'
    | 'proposal_pending'
    | 'criteria_without_evidence';
  message: string;
  action: string;
  details: Record<string, unknown>;
}

export const hai_recover = defineTool({
  name: 'hai_recover',
  title: 'Advice: what to do next to get back on track',
  description:
    'Reads the governance state and returns concrete next actions, without changing anything: missions past ' +
    'their expiry (recontract or close), stale (expired) and soon-expiring session leases (authorize again), ' +
    'a next-step proposal waiting for the owner (accept it), and criteria without passing evidence (prove ' +
    'them). Also returns the last checkpoint to resume from. Status "empty" when nothing needs attention. ' +
    'Give project_id to narrow it (missing_project if unknown).',
  input: { project_id: projectIdInput.optional() },
  mutates: false,
  async run({ ctx, input }) {
    if (input.project_id !== undefined) await loadProject(ctx.db, input.project_id);
    const now = ctx.now().getTime();
    const advice: Advice[] = [];
    for (const m of await activeMissions(ctx, input.project_id)) {
      const id = m.mission.id;
      if (m.expired) {
        advice.push({
          kind: 'mission_expired',
          message: `Mission "${m.mission.name}" expired at ${m.contract.expiresAt.toISOString()}`,
          action: 'Ask the owner: extend it with hai_recontract, or end it with hai_close_mission',
          details: { mission_id: id, expires_at: m.contract.expiresAt.toISOString() },
        });
      }
      // Bounded: a long mission can leave many expired leases; the first few say what to do.
      for (const l of m.stale.slice(0, STALE_SHOWN)) {
        advice.push({
          kind: 'lease_stale',
          message: `The session of ${l.agent} (lease ${l.id}) expired at ${l.expiresAt.toISOString()}`,
          action: `If the work goes on, authorize a new session with hai_authorize_session (contract_version ${m.mission.currentVersion})`,
          details: { mission_id: id, lease_id: l.id, agent: l.agent, expired_at: l.expiresAt.toISOString() },
        });
      }
      for (const l of m.live) {
        if (l.expiresAt.getTime() - now <= EXPIRING_MS) {
          advice.push({
            kind: 'lease_expiring',
            message: `The session of ${l.agent} (lease ${l.id}) expires at ${l.expiresAt.toISOString()}`,
            action: 'Finish and record proof before it ends, or authorize a new session afterwards',
            details: {
              mission_id: id,
              lease_id: l.id,
              agent: l.agent,
              expires_at: l.expiresAt.toISOString(),
            },
          });
        }
      }
      const missing = m.criteria.filter((c) => c.evidence !== 'pass');
      if (missing.length > 0) {
        advice.push({
          kind: 'criteria_without_evidence',
          message: `${missing.length} criterion(s) of "${m.mission.name}" have no passing evidence under v${m.mission.currentVersion}`,
          action:
            'Verify each as its verification says and record it with hai_proof; then hai_close_mission "completed"',
          details: {
            mission_id: id,
            contract_version: m.mission.currentVersion,
            criteria: missing.map((c) => ({ id: c.id, verification: c.verification, evidence: c.evidence })),
          },
        });
      }
    }
    const pending = await ctx.db
      .select()
      .from(haiProposals)
      .where(
        and(
          eq(haiProposals.state, 'pending'),
          input.project_id === undefined ? undefined : eq(haiProposals.projectId, input.project_id),
        ),
      );
    for (const p of pending) {
      advice.push({
        kind: 'proposal_pending',
        message: `Project ${p.projectId}: next-step proposal ${p.version} waits for the owner`,
        action: `Show it to the owner (hai_get_next_step); with their approval call hai_accept_next_step with proposal_version ${p.version}`,
        details: { project_id: p.projectId, proposal_version: p.version, proposed_by: p.proposedBy },
      });
    }
    const [checkpoint] = await ctx.db
      .select()
      .from(haiCheckpoints)
      .where(
        input.project_id === undefined ? undefined : inArray(haiCheckpoints.projectId, [input.project_id]),
      )
      .orderBy(desc(haiCheckpoints.createdAt))
      .limit(1);
    const data = {
      advice,
      last_checkpoint:
        checkpoint === undefined
          ? null
          : {
              project_id: checkpoint.projectId,
              label: checkpoint.label,
              summary: checkpoint.summary,
              artifacts: checkpoint.artifacts,
              created_at: checkpoint.createdAt.toISOString(),
            },
    };
    return advice.length === 0
      ? empty(data, 'Nothing needs attention')
      : ok(data, `${advice.length} thing(s) need attention`);
  },
});
