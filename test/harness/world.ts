// A small world of every kind of object the tools address by id, for the suites that walk the whole registry
// (reachability, secrets, fuzzing): a case with a ready document and an agent's claim, a second live case, a
// style document, a governance mission with a session lease. Made through the tools where a tool makes it, so
// the rows are what production writes. Every tool is granted to two agents (ceo and analyst), so a walk can
// call any tool, and call it as another agent than the one that made an object.
import { sql } from 'drizzle-orm';
import { tools as productionTools } from '../../entry/registries.ts';
import type { AgentName } from '../../src/agents/grants.ts';
import type { Db } from '../../src/db/types.ts';
import { seedCase, seedDocument, textBytes } from './documents.ts';
import { agentsWithGrants, expectOk, type TestServer } from './server.ts';

/** The agents every tool is granted to (owner-only tools excepted: the console calls those). */
export const WALKERS = ['ceo', 'analyst'] as const satisfies readonly AgentName[];

/** The real agents with every agent tool (and `extra` fixture tools) granted to each walker. */
export async function walkerAgents(extra: readonly string[] = []) {
  const names = [...productionTools.filter((t) => t.ownerOnly !== true).map((t) => t.name), ...extra];
  return agentsWithGrants(Object.fromEntries(WALKERS.map((a) => [a, names])));
}

/** The page text of the world's case document: the claim quotes it. */
export const WORLD_PAGE = 'העוררים טוענים כי החלטת הוועדה המקומית שגויה ויש לבטלה.';

export interface World {
  /** The case the walk deletes or hides, and what hangs off it. */
  caseId: string;
  documentId: string;
  claimId: string;
  /** A live case and document, untouched. */
  otherCaseId: string;
  otherDocumentId: string;
  styleDocumentId: string;
  missionId: string;
  /** The analyst's lease on the mission. */
  leaseId: string;
  /** A project bound on `deviceId` (ack mode only: in approval mode binding waits for the owner, so null). */
  projectId: string | null;
  deviceId: string;
}

/** Makes the world on `s` (granted with walkerAgents). */
export async function makeWorld(s: TestServer): Promise<World> {
  const db = s.db.db;
  const caseId = await seedCase(db, 'ערר לבדיקת נגישות');
  const otherCaseId = await seedCase(db, 'ערר שני');
  const doc = await seedDocument(db, {
    corpus: 'case',
    caseId,
    bytes: textBytes(`${WORLD_PAGE}\n`),
    declaredMediaType: 'text/plain',
    filename: 'appeal.txt',
    role: 'appeal',
  });
  const other = await seedDocument(db, {
    corpus: 'case',
    caseId: otherCaseId,
    bytes: textBytes('כתב תשובה של המשיבה.\n'),
    declaredMediaType: 'text/plain',
    filename: 'response.txt',
  });
  const style = await seedDocument(db, {
    corpus: 'style',
    caseId: null,
    bytes: textBytes('דוגמת כתיבה של יושב הראש.\n'),
    declaredMediaType: 'text/plain',
    filename: 'style.txt',
  });
  const claim = expectOk<{ claim: { id: string } }>(
    await s.call('analyst', 'claim_record', {
      case_id: caseId,
      action: 'add',
      party: 'appellant',
      kind: 'claim',
      text: 'החלטת הוועדה המקומית שגויה',
      document_id: doc.id,
      page: 1,
      quote: 'החלטת הוועדה המקומית שגויה',
    }),
  );
  const { mission } = expectOk<{ mission: { id: string; contract_version: number } }>(
    await s.call('ceo', 'hai_open_mission', {
      name: 'reach-walk',
      title: 'Walk',
      goal: 'Walk the registry',
      in_scope: ['analysis'],
      criteria: [{ id: 'walked', description: 'Walked', verification: 'the test' }],
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    }),
  );
  const { lease } = expectOk<{ lease: { lease_id: string } }>(
    await s.call('analyst', 'hai_authorize_session', {
      mission_id: mission.id,
      contract_version: mission.contract_version,
    }),
  );
  const deviceId = 'walk-device';
  const bound = await s.call('ceo', 'hai_bind_project', {
    project_id: 'erer-walk-25',
    device_id: deviceId,
    mount_path: '/work/erer-walk-25',
    title: 'ערר לבדיקה',
    owner_ack: true,
    reason: 'the walk needs a project',
  });
  return {
    projectId: bound.ok ? 'erer-walk-25' : null,
    deviceId,
    caseId,
    documentId: doc.id,
    claimId: claim.claim.id,
    otherCaseId,
    otherDocumentId: other.id,
    styleDocumentId: style.id,
    missionId: mission.id,
    leaseId: lease.lease_id,
  };
}

/** Row counts of every table of the schema (audit_log apart: a refused write is audited by design). */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.execute(
    sql.raw(
      "select table_name as t from information_schema.tables where table_schema = 'public' " +
        "and table_type = 'BASE TABLE' and table_name <> 'audit_log' order by 1",
    ),
  );
  const out: Record<string, number> = {};
  for (const { t } of (tables as unknown as { rows: { t: string }[] }).rows) {
    const r = await db.execute(sql.raw(`select count(*)::int as n from "${t}"`));
    out[t] = Number((r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  }
  return out;
}
