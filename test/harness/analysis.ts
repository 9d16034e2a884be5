// Shared by the analysis family's tool tests (reference_*, claim_*, argument_*, appraiser_fact_*): a server per
// stack, the case file fixture seeded into a case as its documents, the three extractions run, counts of
// what the family stores (to show a refused call wrote nothing), 20 identical calls at once, and the
// permission check with a grant taken away.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentName, AgentRegistry } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { cases } from '../../src/db/schema/cases.ts';
import type { Db } from '../../src/db/types.ts';
import {
  type CaseFileName,
  caseFileAnswers,
  caseFileBytes,
  caseFileNames,
} from '../fixtures/case_file/case_file.ts';
import { seedCase, seedDocument } from './documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer, type TestServerOptions } from './server.ts';
import { describeWithService } from './services.ts';

export type Stack = { db: 'pglite' | 'postgres'; kv: 'postgres' | 'upstash' };

export const DB_STACKS: readonly Stack[] = [
  { db: 'pglite', kv: 'postgres' },
  { db: 'postgres', kv: 'postgres' },
];
/** Where concurrent identical calls are tested: also the Upstash adapter, through the bridge to Redis. */
export const ALL_STACKS: readonly Stack[] = [...DB_STACKS, { db: 'postgres', kv: 'upstash' }];

/** Registers `fn` once per stack with its own server (PostgreSQL and Redis suites need those services). */
export function forEachStack(
  title: string,
  stacks: readonly Stack[],
  fn: (server: () => TestServer, stack: Stack) => void,
  options: Omit<TestServerOptions, 'db' | 'kv'> = {},
): void {
  for (const stack of stacks) {
    const body = () => {
      let s: TestServer | undefined;
      beforeAll(async () => {
        s = await startTestServer({ ...options, ...stack });
      });
      afterAll(async () => s?.close());
      fn(() => {
        if (s === undefined) throw new Error('the server exists only inside tests and hooks');
        return s;
      }, stack);
    };
    const suite = `${title} [${stack.db} + ${stack.kv} kv]`;
    if (stack.db === 'pglite') describe(suite, body);
    else if (stack.kv === 'upstash')
      describeWithService('postgres', suite, () => describeWithService('redis', 'redis', body));
    else describeWithService('postgres', suite, body);
  }
}

const MEDIA = {
  txt: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

export interface SeededCase {
  caseId: string;
  docs: Record<CaseFileName, string>;
}

/**
 * A new case holding the case file's documents with their text extracted (as after upload, but without the
 * analysis follow-ups: the tools under test queue that work themselves).
 */
export async function seedCaseFile(
  db: Db,
  options: { names?: readonly CaseFileName[]; format?: 'txt' | 'pdf' | 'docx' } = {},
): Promise<SeededCase> {
  const caseId = await seedCase(db, 'פרידמן נ׳ הוועדה המקומית הרצליה');
  const format = options.format ?? 'txt';
  const docs = {} as Record<CaseFileName, string>;
  for (const name of options.names ?? caseFileNames) {
    const row = await seedDocument(db, {
      corpus: 'case',
      caseId,
      bytes: await caseFileBytes(name, format),
      declaredMediaType: MEDIA[format],
      title: caseFileAnswers.documents[name].title,
      filename: `${name}.${format}`,
    });
    docs[name] = row.id;
  }
  return { caseId, docs };
}

/** Runs the three extractions over a case (as the analyst, waiting for them). */
export async function extractCase(s: TestServer, caseId: string): Promise<void> {
  for (const tool of ['reference_extract', 'claim_extract', 'appraiser_fact_extract']) {
    const data = expectOk<{ done: boolean }>(
      await s.call('analyst', tool, { case_id: caseId, wait_ms: 10_000 }),
    );
    expect(data.done, tool).toBe(true);
  }
}

/** Soft-deletes a case as case_delete does (its documents become unreachable with it). */
export async function deleteCase(db: Db, caseId: string): Promise<void> {
  await db
    .update(cases)
    .set({ deletedAt: new Date(), deletedBy: 'ceo', deleteReason: 'test' })
    .where(eq(cases.id, caseId));
}

const TABLES = [
  'case_references',
  'claims',
  'claim_actions',
  'argument_maps',
  'case_arguments',
  'argument_claims',
  'appraisal_facts',
  'jobs',
] as const;

/** Row counts of every table the family writes (and the job queue), to show a refused call wrote nothing. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const r = await db.execute(sql.raw(`select count(*)::int as n from ${t}`));
    out[t] = Number((r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  }
  return out;
}

/**
 * 20 identical calls at once, retrying those told in_progress until they settle; returns the answers. Half
 * go from each of `agents` when two are given (the request layer is per agent, the database across them).
 */
export async function twentyAtOnce(
  s: TestServer,
  tool: string,
  args: Record<string, unknown>,
  agents: readonly AgentName[] = ['analyst'],
): Promise<Envelope[]> {
  const settle = async (agent: AgentName): Promise<Envelope> => {
    for (;;) {
      const env = await s.call(agent, tool, args);
      if (errorCode(env) !== 'in_progress') return env;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return Promise.all(Array.from({ length: 20 }, (_, i) => settle(agents[i % agents.length] as AgentName)));
}

/** The real agents with `tools` taken from `agent` (their mentions un-backticked, so the grant check holds). */
export async function agentsWithout(agent: AgentName, tools: readonly string[]): Promise<AgentRegistry> {
  const agents = new Map(await loadAgentsFromDir('agents'));
  const def = agents.get(agent);
  if (def === undefined) throw new Error(`no agent ${agent}`);
  let instructions = def.instructions;
  for (const t of tools) instructions = instructions.replaceAll(`\`${t}\``, t);
  agents.set(agent, { ...def, tools: def.tools.filter((t) => !tools.includes(t)), instructions });
  return agents;
}

/**
 * The permission test: `agent` without the grant gets tool_not_granted (naming who holds it) and nothing is
 * written. For a tool every agent holds, the grant is taken away on a server of its own (`take`).
 */
export function deniedTo(
  tool: string,
  agent: AgentName,
  args: (seeded: SeededCase) => Record<string, unknown>,
  take = false,
): void {
  describe(`${tool} without the grant`, () => {
    let s: TestServer | undefined;
    let seeded: SeededCase | undefined;
    beforeAll(async () => {
      s = await startTestServer(take ? { agents: await agentsWithout(agent, [tool]) } : {});
      seeded = await seedCaseFile(s.db.db, { names: ['appeal'] });
    });
    afterAll(async () => s?.close());
    it(`${agent} gets tool_not_granted and nothing is written`, async () => {
      if (s === undefined || seeded === undefined) throw new Error('no server');
      const before = await tableCounts(s.db.db);
      const res = await s.call(agent, tool, args(seeded));
      expect(errorCode(res)).toBe('tool_not_granted');
      expect(res.ok ? null : res.error.details).toMatchObject({ granted_to: expect.any(Array) });
      expect(await tableCounts(s.db.db)).toEqual(before);
    });
  });
}
