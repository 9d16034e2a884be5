// Missions that govern the legal work (docs/governance.md): with GOVERNANCE_ENFORCE on, the kernel asks this
// module before every call (src/contract/execute.ts). A mutating legal tool that acts on a case runs only
// for an agent holding a live session lease on that case's active mission, and only when the tool's
// activity is inside the contract's scope. Reads, the governance tools themselves and the owner's own calls
// in the console stay free. The rule is driven by what every definition already says (`mutates`, its name's
// family, an optional `activity`), so a tool added later is governed without anyone remembering to.
import type { AnyTool, ToolContext } from '../contract/define.ts';
import { ToolError } from '../contract/errors.ts';
import { familyOf } from '../contract/naming.ts';
import { and, eq, isNull } from '../db/orm.ts';
import { appraisalFacts, claims } from '../db/schema/analysis.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import { draftExports, finalVersions } from '../db/schema/drafting.ts';
import { haiLeases, haiMissions } from '../db/schema/hai.ts';
import { casePrecedents } from '../db/schema/holdings.ts';
import { missingPrecedents } from '../db/schema/precedents.ts';
import { directions } from '../db/schema/review.ts';
import type { Db } from '../db/types.ts';
import { scopeOf } from './contracts.ts';
import { leaseIsLive } from './leases.ts';
import { loadContract, requireActive } from './missions.ts';
import { sentence, use } from './roles.ts';

/**
 * The area of legal work of each family: a tool's activity label is `<area>:<tool name>`, so a contract's
 * in_scope "drafting" covers every drafting tool and "drafting:feedback_record" just that one. A definition's
 * `activity` names the area instead; a family not listed is its own area.
 */
export const FAMILY_AREAS: Readonly<Record<string, string>> = {
  case: 'case',
  document: 'documents',
  extraction: 'documents',
  library: 'library',
  internal: 'library',
  style: 'library',
  reference: 'analysis',
  claim: 'analysis',
  argument: 'analysis',
  appraiser: 'analysis',
  citation: 'analysis',
  halacha: 'analysis',
  precedent: 'research',
  missing: 'research',
  search: 'research',
  block: 'drafting',
  draft: 'drafting',
  direction: 'drafting',
  outcome: 'drafting',
  feedback: 'drafting',
  final: 'drafting',
  workflow: 'workflow',
  metrics: 'workflow',
};

/** The families the rule never applies to: the governance tools (they are how a lease is taken). */
const GOVERNANCE_FAMILIES = new Set(['hai']);

/**
 * Whether the rule covers the tool's calls: it mutates, it is not a governance tool, and an agent calls it
 * (an owner-only tool is the owner's, in the console).
 */
export const isGoverned = (def: AnyTool): boolean =>
  def.mutates !== false && def.ownerOnly !== true && !GOVERNANCE_FAMILIES.has(familyOf(def.name));

/**
 * The activity label of a tool's calls: `<area>:<tool name>`. A family not in FAMILY_AREAS is its own area,
 * so a tool of a new family is governed from its first call (its contracts name that family until it is
 * listed).
 */
export const activityOf = (def: AnyTool): string =>
  `${def.activity ?? FAMILY_AREAS[familyOf(def.name)] ?? familyOf(def.name)}:${def.name}`;

/** How each id parameter leads to its case: the object's `case_id` column (null: an object of no case). */
const CASE_OF: readonly [string, (db: Db, id: string) => Promise<{ caseId: string | null }[]>][] = [
  ['case_id', (db, id) => db.select({ caseId: cases.id }).from(cases).where(eq(cases.id, id))],
  [
    'document_id',
    (db, id) => db.select({ caseId: documents.caseId }).from(documents).where(eq(documents.id, id)),
  ],
  ['claim_id', (db, id) => db.select({ caseId: claims.caseId }).from(claims).where(eq(claims.id, id))],
  [
    'direction_id',
    (db, id) => db.select({ caseId: directions.caseId }).from(directions).where(eq(directions.id, id)),
  ],
  [
    'export_id',
    (db, id) => db.select({ caseId: draftExports.caseId }).from(draftExports).where(eq(draftExports.id, id)),
  ],
  [
    'final_version_id',
    (db, id) =>
      db.select({ caseId: finalVersions.caseId }).from(finalVersions).where(eq(finalVersions.id, id)),
  ],
  [
    'precedent_id',
    (db, id) =>
      db.select({ caseId: casePrecedents.caseId }).from(casePrecedents).where(eq(casePrecedents.id, id)),
  ],
  [
    'missing_precedent_id',
    (db, id) =>
      db
        .select({ caseId: missingPrecedents.caseId })
        .from(missingPrecedents)
        .where(eq(missingPrecedents.id, id)),
  ],
  [
    'fact_id',
    (db, id) =>
      db.select({ caseId: appraisalFacts.caseId }).from(appraisalFacts).where(eq(appraisalFacts.id, id)),
  ],
];

/** The id parameters the rule follows to a case (the governance walk checks every tool against them). */
export const CASE_PARAMETERS: readonly string[] = CASE_OF.map(([param]) => param);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The live case a call acts on: the first id parameter given that names an object of a case. None when the
 * call names no case (the library, a new case) or the id names nothing: then the tool answers for itself
 * (not_found), as it would without the rule.
 */
export async function caseOfCall(db: Db, input: Readonly<Record<string, unknown>>): Promise<string | null> {
  for (const [param, lookup] of CASE_OF) {
    const id = input[param];
    if (typeof id !== 'string' || !UUID.test(id)) continue;
    const caseId = (await lookup(db, id))[0]?.caseId ?? null;
    if (caseId === null) continue;
    const live = await db
      .select({ id: cases.id })
      .from(cases)
      .where(and(eq(cases.id, caseId), isNull(cases.deletedAt)));
    return live.length === 0 ? null : caseId;
  }
  return null;
}

/** The active mission of a case, if any (one at most: the missions' active index is per case). */
export async function activeCaseMission(db: Db, caseId: string) {
  const rows = await db
    .select()
    .from(haiMissions)
    .where(and(eq(haiMissions.caseId, caseId), eq(haiMissions.state, 'active')));
  return rows[0];
}

/**
 * The rule, for one call about to run (decoded arguments, before the owner gate and the idempotency slot):
 * returns when the call may run, else throws lease_required, mission_not_active or activity_out_of_scope.
 * Checked at the start of the call; a lease revoked while the call runs takes effect from the next call.
 */
export async function enforceGovernance(
  ctx: ToolContext,
  def: AnyTool,
  input: Readonly<Record<string, unknown>>,
): Promise<void> {
  if (ctx.owner !== undefined || !isGoverned(def)) return;
  const activity = activityOf(def);
  const caseId = await caseOfCall(ctx.db, input);
  if (caseId === null) return;
  const mission = await activeCaseMission(ctx.db, caseId);
  const base = { case_id: caseId, tool: def.name, activity, agent: ctx.agent };
  if (mission === undefined) {
    throw new ToolError(
      'lease_required',
      `${def.name} changes case ${caseId}, which has no active mission to work under`,
      {
        details: { ...base, mission_id: null },
        hint: sentence(
          `${use(ctx, 'hai_open_mission', 'open a mission for the case', ' (case_id, a contract whose in_scope covers the activity)')}, ` +
            `then ${use(ctx, 'hai_authorize_session', 'take a session lease on it')} and repeat this call`,
        ),
      },
    );
  }
  const now = ctx.now();
  const contract = await loadContract(ctx.db, mission.id, mission.currentVersion);
  requireActive(ctx, mission, contract, now);
  const [lease] = await ctx.db
    .select({ id: haiLeases.id })
    .from(haiLeases)
    .where(
      and(
        eq(haiLeases.missionId, mission.id),
        eq(haiLeases.agent, ctx.agent),
        leaseIsLive(mission.leaseEpoch, now),
      ),
    )
    .limit(1);
  const where = { ...base, mission_id: mission.id, contract_version: mission.currentVersion };
  if (lease === undefined) {
    throw new ToolError(
      'lease_required',
      `${def.name} changes case ${caseId}: agent "${ctx.agent}" holds no live session lease on its mission "${mission.name}"`,
      {
        details: where,
        hint: sentence(
          use(
            ctx,
            'hai_authorize_session',
            'take a session lease',
            ` (mission_id ${mission.id}, contract_version ${mission.currentVersion}), then repeat this call`,
          ),
        ),
      },
    );
  }
  const verdict = scopeOf(contract, activity);
  if (!verdict.in_scope) {
    throw new ToolError(
      'activity_out_of_scope',
      verdict.rule === 'out_of_scope'
        ? `"${activity}" is out of scope of mission "${mission.name}" (${verdict.matched})`
        : `"${activity}" is not in the scope of mission "${mission.name}"`,
      {
        details: {
          ...where,
          lease_id: lease.id,
          rule: verdict.rule,
          matched: verdict.matched,
          in_scope: contract.inScope,
          out_of_scope: contract.outOfScope,
        },
        hint: sentence(
          `do not do it now: ${ctx.holds('hai_park_item') ? 'park it with hai_park_item' : 'leave it aside'}, or ${use(ctx, 'hai_recontract', 'have the owner widen the contract', ` to cover "${activity}"`)}`,
        ),
      },
    );
  }
}
