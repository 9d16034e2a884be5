// Shared fixtures of the hai test suites: servers per stack with a movable clock, a project bound on a
// device, missions with a valid finite contract, sessions, the calls most tests make on the way (recontract,
// abandon, proof), a held mission row, and agents with a grant taken away.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { hai_authorize_session } from '../../../functions/hai/hai_authorize_session.ts';
import type { hai_open_mission } from '../../../functions/hai/hai_open_mission.ts';
import type { hai_recontract } from '../../../functions/hai/hai_recontract.ts';
import type { AgentName, AgentRegistry } from '../../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../../src/agents/load_node.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import type { Envelope } from '../../../src/contract/envelope.ts';
import * as schema from '../../../src/db/schema/hai.ts';
import type { Db } from '../../../src/db/types.ts';
import { callAsOwner } from '../../harness/owner.ts';
import { expectOk, startTestServer, type TestServer, type TestServerOptions } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

export type HaiStack = { db: 'pglite' | 'postgres'; kv: 'postgres' | 'upstash' };

/** Both databases; the key-value store in the same database. */
export const DB_STACKS: readonly HaiStack[] = [
  { db: 'pglite', kv: 'postgres' },
  { db: 'postgres', kv: 'postgres' },
];
/** Where leases matter: also the Upstash adapter (through the bridge to the local Redis). */
export const LEASE_STACKS: readonly HaiStack[] = [...DB_STACKS, { db: 'postgres', kv: 'upstash' }];

/** The tools' clock: real time plus an offset the test moves forward. */
export interface Clock {
  now(): Date;
  advance(ms: number): void;
  /** Jumps so that now() is exactly `at` (never backwards). */
  set(at: Date): void;
}

export function movableClock(): Clock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
    set(at) {
      offset = Math.max(offset, at.getTime() - Date.now());
    },
  };
}

export interface HaiEnv {
  s: TestServer;
  clock: Clock;
  stack: HaiStack;
}

const stackTitle = (st: HaiStack) => `${st.db} + ${st.kv} kv`;

/**
 * Registers `fn` once per stack with a server (started in beforeAll) and a movable clock. Postgres stacks
 * need the local PostgreSQL, the upstash stack also Redis (describeWithService: required in CI).
 */
export function forEachStack(
  title: string,
  stacks: readonly HaiStack[],
  fn: (env: () => HaiEnv, stack: HaiStack) => void,
  options:
    | Omit<TestServerOptions, 'db' | 'kv' | 'now'>
    | (() => Promise<Omit<TestServerOptions, 'db' | 'kv' | 'now'>>) = {},
): void {
  for (const stack of stacks) {
    const body = () => {
      let env: HaiEnv | undefined;
      beforeAll(async () => {
        const clock = movableClock();
        const extra = typeof options === 'function' ? await options() : options;
        const s = await startTestServer({ ...extra, ...stack, now: clock.now });
        env = { s, clock, stack };
      });
      afterAll(async () => env?.s.close());
      fn(() => {
        if (env === undefined) throw new Error('the hai env exists only inside tests and hooks');
        return env;
      }, stack);
    };
    const suite = `${title} [${stackTitle(stack)}]`;
    if (stack.db === 'pglite') describe(suite, body);
    else if (stack.kv === 'upstash')
      describeWithService('postgres', suite, () => describeWithService('redis', 'redis', body));
    else describeWithService('postgres', suite, body);
  }
}

let seq = 0;
/** A name unique within the test process. */
export const uniq = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(++seq).toString(36)}`;

export const gate = { owner_ack: true, reason: 'The owner approved it in the meeting' };

/** Binds a fresh project on a device (ceo, owner-gated); returns its id. */
export async function bindProject(
  s: TestServer,
  device = 'laptop-1',
  projectId = uniq('proj'),
): Promise<string> {
  expectOk(
    await s.call('ceo', 'hai_bind_project', {
      project_id: projectId,
      device_id: device,
      mount_path: `/home/owner/${projectId}`,
      ...gate,
    }),
  );
  return projectId;
}

export const criteria = [
  {
    id: 'facts-mapped',
    description: 'The facts are mapped with sources',
    verification: 'qa checks each fact against its page',
  },
  {
    id: 'law-verified',
    description: 'Every authority is verified',
    verification: 'researcher re-reads each quote in the source',
  },
];

/** A valid finite contract (overridable), expiring a week after the clock's now. */
export function contract(clock: Clock, over: Record<string, unknown> = {}) {
  return {
    goal: 'Prepare the analysis of the appeal',
    in_scope: ['analysis', 'research'],
    out_of_scope: ['research:foreign-law', 'drafting'],
    criteria,
    expires_at: new Date(clock.now().getTime() + 7 * 86_400_000).toISOString(),
    max_sessions: 2,
    ...over,
  };
}

export type MissionData = ToolData<typeof hai_open_mission>;

/** The device every fixture project is bound on, and that fixture sessions name. */
export const DEVICE = 'dev-1';

/**
 * The arguments of hai_open_mission: a fresh name, a title and the default contract, on `projectId` (null:
 * a mission without a project), with `over` replacing any of them.
 */
export function missionArgs(clock: Clock, projectId: string | null, over: Record<string, unknown> = {}) {
  return {
    name: uniq('m'),
    title: 'Appeal 1024/25 — analysis',
    ...(projectId === null ? {} : { project_id: projectId }),
    ...contract(clock),
    ...over,
  };
}

/**
 * Opens a mission (ceo) with the default contract plus `over`: on a fresh project bound on DEVICE unless
 * `projectId` is given (null: a mission without a project — only one can be active per server).
 */
export async function openMission(
  env: HaiEnv,
  projectId?: string | null,
  over: Record<string, unknown> = {},
): Promise<MissionData> {
  if (projectId === undefined) projectId = await bindProject(env.s, DEVICE);
  return expectOk<MissionData>(
    await env.s.call('ceo', 'hai_open_mission', missionArgs(env.clock, projectId, over)),
  );
}

export type LeaseData = ToolData<typeof hai_authorize_session>;

/** Authorizes a session for `agent` on the mission's current version. */
export async function authorize(
  env: HaiEnv,
  agent: AgentName,
  missionId: string,
  args: Record<string, unknown> = {},
): Promise<Envelope> {
  return env.s.call(agent, 'hai_authorize_session', {
    mission_id: missionId,
    contract_version: 1,
    device_id: DEVICE,
    ...args,
  });
}

export async function lease(
  env: HaiEnv,
  agent: AgentName,
  missionId: string,
  args: Record<string, unknown> = {},
): Promise<LeaseData['lease']> {
  return expectOk<LeaseData>(await authorize(env, agent, missionId, args)).lease;
}

export type RecontractData = ToolData<typeof hai_recontract>;

/** Replaces contract v1 (ceo, with the owner's ack) by the default contract plus `over`: every lease is revoked. */
export async function recontract(
  env: HaiEnv,
  missionId: string,
  over: Record<string, unknown> = {},
): Promise<RecontractData> {
  return expectOk<RecontractData>(
    await env.s.call('ceo', 'hai_recontract', {
      mission_id: missionId,
      expected_version: 1,
      ...contract(env.clock, over),
      ...gate,
    }),
  );
}

/** Asks to close a mission (ceo) with `outcome`, from DEVICE unless `args` says otherwise. */
export function closeMission(
  env: HaiEnv,
  missionId: string,
  outcome: string,
  args: Record<string, unknown> = {},
): Promise<Envelope> {
  return env.s.call('ceo', 'hai_close_mission', {
    mission_id: missionId,
    outcome,
    device_id: DEVICE,
    ...args,
  });
}

/** Closes a mission as abandoned (with the owner's ack): terminal, every lease revoked. */
export async function abandonMission(env: HaiEnv, missionId: string): Promise<void> {
  expectOk(await closeMission(env, missionId, 'abandoned', gate));
}

/** Records evidence under `leaseId`: criterion facts-mapped passes, checked "c", from DEVICE — unless `args` says otherwise. */
export function prove(
  env: HaiEnv,
  agent: AgentName,
  leaseId: string,
  args: Record<string, unknown> = {},
): Promise<Envelope> {
  return env.s.call(agent, 'hai_proof', {
    lease_id: leaseId,
    criterion_id: 'facts-mapped',
    checked: 'c',
    result: 'pass',
    device_id: DEVICE,
    ...args,
  });
}

/**
 * The owner confirms free-text criteria of a mission in the console (hai_confirm_criterion as the owner
 * principal): what closing "completed" needs beyond the agents' evidence. Every criterion of `criteria` by default.
 */
export async function confirmCriteria(
  env: HaiEnv,
  missionId: string,
  ids: readonly string[] = criteria.map((c) => c.id),
): Promise<void> {
  for (const criterion_id of ids) {
    expectOk(
      await callAsOwner(
        env.s,
        'dana',
        'hai_confirm_criterion',
        { mission_id: missionId, criterion_id, reason: 'I read the evidence' },
        { now: env.clock.now },
      ),
    );
  }
}

/** Every hai table by a short name: what the gate matrix counts and the retry tests snapshot. */
export const HAI_TABLES = {
  projects: schema.haiProjects,
  mounts: schema.haiMounts,
  artifacts: schema.haiArtifacts,
  inbox: schema.haiInbox,
  lanes: schema.haiLanes,
  proposals: schema.haiProposals,
  checkpoints: schema.haiCheckpoints,
  missions: schema.haiMissions,
  contracts: schema.haiContracts,
  leases: schema.haiLeases,
  activity: schema.haiActivityChecks,
  evidence: schema.haiEvidence,
  parked: schema.haiParkedItems,
  confirmations: schema.haiConfirmations,
};

const rowCounts = async (db: Db) => {
  const out: Record<string, number> = {};
  for (const [name, t] of Object.entries(HAI_TABLES)) out[name] = (await db.select().from(t)).length;
  return out;
};

/** Runs `action` and says which hai tables it changed, as { table: row delta } ({} when none). */
export async function tableChanges(db: Db, action: () => Promise<unknown>): Promise<Record<string, number>> {
  const a = await rowCounts(db);
  await action();
  const b = await rowCounts(db);
  return Object.fromEntries(
    Object.keys(b).flatMap((k) => (b[k] === a[k] ? [] : [[k, (b[k] ?? 0) - (a[k] ?? 0)]])),
  );
}

export interface HeldMissionRow {
  /** The holding connection, inside its transaction (for statements the test runs while it holds the row). */
  client: pg.Client;
  /** Resolves once a statement of the database waits on a lock: the call under test reached the held row. */
  untilWaiting(): Promise<void>;
  /** Commits the holding transaction, letting the waiting call go on. */
  commit(): Promise<void>;
  /** Closes the connection (rolling back what is not committed); call it in `finally`. */
  end(): Promise<void>;
}

/**
 * A second connection that holds a mission row FOR UPDATE, so a call can be made to wait on it. Needs the
 * local PostgreSQL (PGlite has a single connection).
 */
export async function holdMissionRow(env: HaiEnv, missionId: string): Promise<HeldMissionRow> {
  const url = (env.s.db as { url?: string }).url;
  if (url === undefined) throw new Error('the postgres test database has a url');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select id from hai_missions where id = $1 for update', [missionId]);
  } catch (e) {
    await client.end();
    throw e;
  }
  return {
    client,
    async untilWaiting() {
      for (;;) {
        const { rows } = await client.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        if ((rows[0]?.n ?? 0) > 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async commit() {
      await client.query('commit');
    },
    end: () => client.end(),
  };
}

/**
 * The real agents with `tools` taken away from `agent`, and their mentions un-backticked, so the grant
 * check (no grant without a mention, docs/contract.md "Grants and gates") still holds: the permission tests of tools every agent is granted.
 */
export async function agentsWithout(agent: AgentName, tools: readonly string[]): Promise<AgentRegistry> {
  const agents = new Map(await loadAgentsFromDir('agents'));
  const def = agents.get(agent);
  if (def === undefined) throw new Error(`no agent ${agent}`);
  let instructions = def.instructions;
  for (const t of tools) instructions = instructions.replaceAll(`\`${t}\``, t);
  agents.set(agent, { ...def, tools: def.tools.filter((t) => !tools.includes(t)), instructions });
  return agents;
}

/** The lease of a successful hai_authorize_session envelope. */
export const leaseOf = (envelope: Envelope): LeaseData['lease'] => expectOk<LeaseData>(envelope).lease;

/**
 * The permission test of a tool: `agent` without the grant gets tool_not_granted and does not see it in
 * tools/list. For tools every agent holds, the grant is taken away on a server of its own.
 */
export function deniedTo(tool: string, agent: AgentName, args: Record<string, unknown>, take = false): void {
  describe(`${tool} without the grant`, () => {
    let s: TestServer | undefined;
    beforeAll(async () => {
      s = await startTestServer(take ? { agents: await agentsWithout(agent, [tool]) } : {});
    });
    afterAll(async () => s?.close());
    it(`${agent} gets tool_not_granted and does not see it listed`, async () => {
      if (s === undefined) throw new Error('no server');
      const res = await s.call(agent, tool, args);
      expect(res.ok ? null : res.error.code).toBe('tool_not_granted');
      const listed = (await (await s.connect(agent)).listTools()).tools.map((t) => t.name);
      expect(listed).not.toContain(tool);
    });
  });
}
