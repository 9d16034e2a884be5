import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { and, desc, eq } from '../../src/db/orm.ts';
import { haiCheckpoints, haiProposals } from '../../src/db/schema/hai.ts';
import { artifactVersionsOutput } from '../../src/governance/artifacts.ts';
import { MAX_CRITERIA } from '../../src/governance/contracts.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';
import { type Holds, sentence, use, whoDoes } from '../../src/governance/roles.ts';
import { type ActiveMission, activeMissions } from '../../src/governance/status.ts';

/** A live lease this close to its end is reported as expiring. */
const EXPIRING_MS = 10 * 60 * 1000;
/** Stale leases shown per mission (newest first), and pieces of advice shown in all. */
const STALE_SHOWN = 20;
const ADVICE_SHOWN = 100;

const adviceKinds = [
  'mission_expired',
  'lease_stale',
  'lease_expiring',
  'criteria_without_evidence',
  'proposal_pending',
] as const;

/** One piece of advice; `details` carries the facts of its kind (the fields each kind sets are listed). */
const adviceOutput = z.object({
  kind: z.enum(adviceKinds).describe('What needs attention'),
  message: z.string().describe('What is wrong, in a sentence'),
  action: z
    .string()
    .describe('What to do next: it names only tools you hold, else the agent to hand the step to'),
  details: z
    .object({
      mission_id: z.uuid().optional().describe('Every kind but proposal_pending'),
      expires_at: z.iso.datetime().optional().describe('mission_expired, lease_expiring'),
      lease_id: z.uuid().optional().describe('lease_stale, lease_expiring'),
      agent: z.string().optional().describe('lease_stale, lease_expiring: whose session'),
      expired_at: z.iso.datetime().optional().describe('lease_stale'),
      contract_version: z.int().min(1).optional().describe('criteria_without_evidence'),
      criteria: z
        .array(z.object({ id: z.string(), verification: z.string(), evidence: z.enum(['none', 'fail']) }))
        .max(MAX_CRITERIA)
        .optional()
        .describe('criteria_without_evidence: those criteria, with how each is verified'),
      project_id: z.string().optional().describe('proposal_pending'),
      proposal_version: z.int().min(1).optional().describe('proposal_pending: the version to accept'),
      proposed_by: z.string().optional().describe('proposal_pending'),
    })
    .describe('The ids and times the action needs'),
});

type Advice = z.input<typeof adviceOutput>;

/** The advice on one active mission: expiry, stale and expiring sessions, criteria without passing evidence. */
function missionAdvice(ctx: Holds & { agent: string }, m: ActiveMission, now: number): Advice[] {
  const advice: Advice[] = [];
  const id = m.mission.id;
  const version = m.mission.currentVersion;
  if (m.expired) {
    advice.push({
      kind: 'mission_expired',
      message: `Mission "${m.mission.name}" expired at ${m.contract.expiresAt.toISOString()}`,
      action:
        ctx.holds('hai_recontract') && ctx.holds('hai_close_mission')
          ? 'Ask the owner: extend it with hai_recontract, or end it with hai_close_mission'
          : `Tell ${whoDoes('hai_recontract')}: the owner decides whether to extend it or end it`,
      details: { mission_id: id, expires_at: m.contract.expiresAt.toISOString() },
    });
  }
  // Bounded: a long mission can leave many expired leases; the latest few say what to do.
  for (const l of m.stale.slice(0, STALE_SHOWN)) {
    advice.push({
      kind: 'lease_stale',
      message: `The session of ${l.agent} (lease ${l.id}) expired at ${l.expiresAt.toISOString()}`,
      action:
        l.agent === ctx.agent && ctx.holds('hai_authorize_session')
          ? `If the work goes on, authorize a new session with hai_authorize_session (contract_version ${version})`
          : `If the work goes on, ask the ${l.agent} to authorize a new session (contract_version ${version})`,
      details: { mission_id: id, lease_id: l.id, agent: l.agent, expired_at: l.expiresAt.toISOString() },
    });
  }
  for (const l of m.live) {
    if (l.expiresAt.getTime() - now > EXPIRING_MS) continue;
    const steps = `finish and ${use(ctx, 'hai_proof', 'record proof')} before it ends, or ${use(ctx, 'hai_authorize_session', 'authorize a new session')} afterwards`;
    advice.push({
      kind: 'lease_expiring',
      message: `The session of ${l.agent} (lease ${l.id}) expires at ${l.expiresAt.toISOString()}`,
      action:
        l.agent === ctx.agent
          ? sentence(steps)
          : `Tell the ${l.agent}: finish and record proof before it ends, or authorize a new session afterwards`,
      details: { mission_id: id, lease_id: l.id, agent: l.agent, expires_at: l.expiresAt.toISOString() },
    });
  }
  const missing = m.criteria.filter((c) => c.evidence !== 'pass');
  if (missing.length > 0) {
    advice.push({
      kind: 'criteria_without_evidence',
      message: `${missing.length} criterion(s) of "${m.mission.name}" have no passing evidence under v${version}`,
      action: sentence(
        `${use(ctx, 'hai_proof', 'verify each as its verification says and record it')}; then ${use(ctx, 'hai_close_mission', 'close the mission as "completed"')}`,
      ),
      details: {
        mission_id: id,
        contract_version: version,
        criteria: missing.map((c) => ({
          id: c.id,
          verification: c.verification,
          evidence: c.evidence === 'fail' ? ('fail' as const) : ('none' as const),
        })),
      },
    });
  }
  return advice;
}

export const hai_recover = defineTool({
  name: 'hai_recover',
  title: 'Next actions to get back on track',
  description:
    'Turns the governance state into next actions, changing nothing: expired missions (recontract or ' +
    'close), stale or expiring leases (authorize again), a proposal awaiting the owner, criteria ' +
    'without passing evidence; and the last checkpoint to resume from. Status "empty" when nothing ' +
    'needs attention.',
  input: { project_id: projectIdInput.optional() },
  output: z.object({
    advice: z
      .array(adviceOutput)
      .max(ADVICE_SHOWN)
      .describe('Next actions: per active mission, then next-step proposals waiting for the owner'),
    truncated: z
      .boolean()
      .describe(`More needs attention than shown (at most ${ADVICE_SHOWN}); narrow it with project_id`),
    last_checkpoint: z
      .object({
        project_id: z.string(),
        label: z.string(),
        summary: z.string(),
        artifacts: artifactVersionsOutput.describe('Artifact name → its version at the checkpoint'),
        created_at: z.iso.datetime(),
      })
      .nullable()
      .describe('The latest checkpoint (of the project) to resume from, else null'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    if (input.project_id !== undefined) await loadProject(ctx.db, ctx, input.project_id);
    const now = ctx.now().getTime();
    const active = await activeMissions(ctx, input.project_id);
    const advice = active.missions.flatMap((m) => missionAdvice(ctx, m, now));
    const pending = await ctx.db
      .select()
      .from(haiProposals)
      .where(
        and(
          eq(haiProposals.state, 'pending'),
          input.project_id === undefined ? undefined : eq(haiProposals.projectId, input.project_id),
        ),
      )
      .orderBy(haiProposals.projectId)
      .limit(ADVICE_SHOWN + 1);
    for (const p of pending) {
      advice.push({
        kind: 'proposal_pending',
        message: `Project ${p.projectId}: next-step proposal ${p.version} waits for the owner`,
        action: ctx.holds('hai_accept_next_step')
          ? `Show it to the owner${ctx.holds('hai_get_next_step') ? ' (hai_get_next_step)' : ''}; with their approval call hai_accept_next_step with proposal_version ${p.version}`
          : `Ask ${whoDoes('hai_accept_next_step')} to show it to the owner and, with their approval, accept proposal_version ${p.version}`,
        details: { project_id: p.projectId, proposal_version: p.version, proposed_by: p.proposedBy },
      });
    }
    const [checkpoint] = await ctx.db
      .select()
      .from(haiCheckpoints)
      .where(input.project_id === undefined ? undefined : eq(haiCheckpoints.projectId, input.project_id))
      .orderBy(desc(haiCheckpoints.createdAt))
      .limit(1);
    const truncated = active.truncated || advice.length > ADVICE_SHOWN;
    const data = {
      advice: advice.slice(0, ADVICE_SHOWN),
      truncated,
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
    return advice.length === 0 && !truncated
      ? empty(data, 'Nothing needs attention')
      : ok(data, `${advice.length}${truncated ? '+' : ''} thing(s) need attention`);
  },
});
