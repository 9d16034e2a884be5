// Missions that govern the legal work, walked over the whole registry with GOVERNANCE_ENFORCE on: every mutating
// legal tool that acts on a case is refused without the caller's lease on the case's mission (lease_required,
// nothing written), refused with a lease whose contract does not cover its activity (activity_out_of_scope),
// and let through with a lease whose contract does; reads stay free. Which tools act on a case is read from
// their advertised parameters, and a mutating tool that names no case must be listed below with the reason,
// so a tool added later is walked or the suite says what to add.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../entry/registries.ts';
import type { AgentName } from '../../src/agents/grants.ts';
import { familyOf } from '../../src/contract/naming.ts';
import type { RegisteredTool } from '../../src/contract/registry.ts';
import { activityOf, CASE_PARAMETERS, FAMILY_AREAS, isGoverned } from '../../src/governance/enforce.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { inputSchemaOf, type Overrides, registryOf, sampleArgs } from '../harness/tool_args.ts';
import { makeWorld, rowCounts, type World, walkerAgents } from '../harness/world.ts';

/** Mutating legal tools whose calls name no case: nothing for a case mission to govern. */
const CASE_FREE: Record<string, string> = {
  case_create: 'makes a new case: no mission can exist for it yet',
  extraction_run: 'drains the shared extraction queue, of every corpus',
  halacha_review: 'decides a holding of the precedent library, which no case holds',
  internal_decision_add: 'adds to the committee’s internal decisions, of no case',
  library_add: 'adds an external ruling to the library, of no case',
};

/** Every activity area, so a contract that lists them covers every governed tool. */
const ALL_AREAS = ['case', 'documents', 'library', 'analysis', 'research', 'drafting', 'workflow'];

const registry = registryOf(tools, 'ack');
const caseParams = (tool: RegisteredTool) =>
  Object.keys(inputSchemaOf(tool).properties ?? {}).filter((p) => CASE_PARAMETERS.includes(p));
const governed = registry.tools.filter((t) => isGoverned(t.def));
const caseBound = governed.filter((t) => caseParams(t).length > 0);
const caseFree = governed.filter((t) => caseParams(t).length === 0);
const reads = registry.tools.filter(
  (t) => t.def.mutates === false && t.def.ownerOnly !== true && caseParams(t).length > 0,
);
// The destructive ones last, the case's deletion at the very end: the walk that lets calls through runs them.
const order = (t: RegisteredTool) =>
  t.def.name === 'case_delete' ? 2 : t.def.mutates === 'destructive' ? 1 : 0;
const walked = [...caseBound].sort((a, b) => order(a) - order(b));

/** Arguments for `tool` naming the world's case through each case parameter it has. */
function argsFor(tool: RegisteredTool, w: World): Record<string, unknown> {
  const ids: Overrides = {
    case_id: w.caseId,
    document_id: w.documentId,
    claim_id: w.claimId,
    direction_id: w.directionId,
    export_id: w.exportId,
    precedent_id: w.precedentId,
    missing_precedent_id: w.missingPrecedentId,
  };
  const named = Object.fromEntries(caseParams(tool).map((p) => [p, ids[p] ?? crypto.randomUUID()]));
  return sampleArgs(tool, { ...named, owner_ack: true, reason: 'the governance walk' }, ids);
}

const contractOf = (inScope: string[], name: string) => ({
  title: 'Governance walk',
  goal: 'Walk the registry under a case mission',
  in_scope: inScope,
  criteria: [{ id: 'walked', description: 'Walked', verification: 'the test' }],
  expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  max_sessions: 20,
  name,
});

describe('governance, walked over the registry (GOVERNANCE_ENFORCE on)', () => {
  let s: TestServer;
  let w: World;
  const caller = (tool: RegisteredTool): AgentName => (tool.def.name === 'case_delete' ? 'ceo' : 'analyst');
  const leaseOn = async (agent: AgentName, missionId: string, version = 1) =>
    expectOk<{ lease: { lease_id: string } }>(
      await s.call(agent, 'hai_authorize_session', { mission_id: missionId, contract_version: version }),
    ).lease.lease_id;
  const openOn = async (caseId: string, inScope: string[], name: string) =>
    expectOk<{ mission: { id: string } }>(
      await s.call('ceo', 'hai_open_mission', { case_id: caseId, ...contractOf(inScope, name) }),
    ).mission.id;
  const abandon = async (missionId: string) =>
    expectOk(
      await s.call('ceo', 'hai_close_mission', {
        mission_id: missionId,
        outcome: 'abandoned',
        owner_ack: true,
        reason: 'the walk moves on',
      }),
    );

  beforeAll(async () => {
    s = await startTestServer({ agents: await walkerAgents(), env: { GOVERNANCE_ENFORCE: 'on' } });
    // The world's own writes to its case happen under a case mission that covers everything.
    let setup = '';
    w = await makeWorld(s, {
      beforeWork: async ({ caseId }) => {
        setup = await openOn(caseId, ALL_AREAS, 'world-setup');
        for (const agent of ['ceo', 'analyst'] as const) await leaseOn(agent, setup);
      },
    });
    await abandon(setup);
  }, 180_000);
  afterAll(async () => s?.close());

  it('every governed tool’s family has an area, and every one that names no case is listed with a reason', () => {
    // Every legal family has its area, so a contract's scope can name it (a new family is its own area).
    const arealess = governed.filter((t) => FAMILY_AREAS[familyOf(t.def.name)] === undefined);
    expect(
      arealess.map((t) => t.def.name),
      'add the family to FAMILY_AREAS in src/governance/enforce.ts',
    ).toEqual([]);
    const unlisted = caseFree.map((t) => t.def.name).filter((n) => CASE_FREE[n] === undefined);
    expect(
      unlisted,
      `A mutating tool names no case parameter (${CASE_PARAMETERS.join(', ')}): follow its case in src/governance/enforce.ts CASE_OF, or list it in CASE_FREE with why`,
    ).toEqual([]);
    const stale = Object.keys(CASE_FREE).filter((n) => !caseFree.some((t) => t.def.name === n));
    expect(stale, 'CASE_FREE lists tools that now name a case, or no longer exist').toEqual([]);
    // The governance tools themselves and the owner's tools are outside the rule.
    expect(governed.some((t) => t.def.name.startsWith('hai_') || t.def.ownerOnly === true)).toBe(false);
    expect(walked.length).toBeGreaterThan(30);
  });

  it('without a mission on the case: every mutating legal tool is lease_required, nothing written', async () => {
    const before = await rowCounts(s.db.db);
    for (const tool of walked) {
      const env = await s.call(caller(tool), tool.def.name, argsFor(tool, w));
      expect(errorCode(env), `${tool.def.name}: ${JSON.stringify(env)}`).toBe('lease_required');
      if (!env.ok) expect(env.error.details).toMatchObject({ case_id: w.caseId, mission_id: null });
    }
    expect(await rowCounts(s.db.db)).toEqual(before);
  }, 120_000);

  it('with a mission but no lease of the caller: lease_required naming the mission; reads stay free', async () => {
    const missionId = await openOn(w.caseId, ALL_AREAS, 'walk-no-lease');
    // Another agent's lease is not the caller's.
    await leaseOn('ceo', missionId);
    const before = await rowCounts(s.db.db);
    for (const tool of walked.filter((t) => caller(t) === 'analyst')) {
      const env = await s.call('analyst', tool.def.name, argsFor(tool, w));
      expect(errorCode(env), `${tool.def.name}: ${JSON.stringify(env)}`).toBe('lease_required');
      if (!env.ok) {
        expect(env.error.details).toMatchObject({ mission_id: missionId, contract_version: 1 });
        expect(env.error.hint).toContain('hai_authorize_session');
      }
    }
    for (const tool of reads) {
      const env = await s.call('analyst', tool.def.name, argsFor(tool, w));
      expect(errorCode(env), `${tool.def.name} is a read`).not.toBe('lease_required');
    }
    expect(await rowCounts(s.db.db)).toEqual(before);
    await abandon(missionId);
  }, 120_000);

  it('with a lease whose contract leaves the activity out: activity_out_of_scope, nothing written', async () => {
    // in_scope names only what no legal tool is; out_of_scope rules out drafting explicitly.
    const missionId = expectOk<{ mission: { id: string } }>(
      await s.call('ceo', 'hai_open_mission', {
        case_id: w.caseId,
        ...contractOf(['meetings'], 'walk-out-of-scope'),
        out_of_scope: ['drafting'],
      }),
    ).mission.id;
    await leaseOn('analyst', missionId);
    await leaseOn('ceo', missionId);
    const before = await rowCounts(s.db.db);
    for (const tool of walked) {
      const env = await s.call(caller(tool), tool.def.name, argsFor(tool, w));
      expect(errorCode(env), `${tool.def.name}: ${JSON.stringify(env)}`).toBe('activity_out_of_scope');
      if (!env.ok) {
        expect(env.error.details).toMatchObject({ activity: activityOf(tool.def), mission_id: missionId });
        expect(env.error.details?.rule).toBe(
          activityOf(tool.def)?.startsWith('drafting:') ? 'out_of_scope' : 'not_listed',
        );
      }
    }
    expect(await rowCounts(s.db.db)).toEqual(before);
    await abandon(missionId);
  }, 120_000);

  it('with a lease whose contract covers the activity: every call gets past governance', async () => {
    const missionId = await openOn(w.caseId, ALL_AREAS, 'walk-leased');
    await leaseOn('analyst', missionId);
    await leaseOn('ceo', missionId);
    for (const tool of walked) {
      const env = await s.call(caller(tool), tool.def.name, argsFor(tool, w));
      // The sampled arguments may not make sense to the tool; governance must not be what refuses them.
      const refusedBy = ['lease_required', 'activity_out_of_scope', 'mission_not_active'];
      expect(refusedBy, `${tool.def.name}: ${JSON.stringify(env)}`).not.toContain(errorCode(env));
    }
  }, 180_000);

  it('tools that name no case run without any lease', async () => {
    const env = await s.call('ceo', 'case_create', {
      case_number: 'ערר 4242/26',
      title: 'ערר ללא משימה',
    });
    expect(errorCode(env)).not.toBe('lease_required');
  });
});
