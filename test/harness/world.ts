// A small world of every kind of object the tools address by id, for the suites that walk the whole registry
// (reachability, secrets, fuzzing): a case with a ready document and an agent's claim, a second live case, a
// style document, a governance mission with a session lease; the precedent library (a ruling with its holdings
// read, an internal decision); and on the first case a block, an export, a direction, a precedent, a missing
// precedent and feedback (with a second missing precedent of no case). Made through the tools where a tool
// makes it, so the rows are what production writes. Every tool is granted to two agents (ceo and analyst), so a walk can
// call any tool, and call it as another agent than the one that made an object.
import { sql } from 'drizzle-orm';
import { tools as productionTools } from '../../entry/registries.ts';
import type { AgentName } from '../../src/agents/grants.ts';
import type { Db } from '../../src/db/types.ts';
import { RULING } from '../functions/halacha/_halacha.ts';
import { seedCase, seedDocument, textBytes } from './documents.ts';
import { drainAll } from './drain.ts';
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
  /** The precedent library: a ruling (with its holdings read) and an internal decision, of no case. */
  libraryDocumentId: string;
  internalDocumentId: string;
  holdingId: string;
  /** Drafting and review objects of the world's case (unreachable once it is deleted). */
  directionId: string;
  exportId: string;
  precedentId: string;
  missingPrecedentId: string;
  feedbackId: string;
  /** A missing precedent of no case: live whatever the walk deletes. */
  openMissingPrecedentId: string;
}

/**
 * Makes the world on `s` (granted with walkerAgents). `beforeWork` runs once the cases and their documents
 * exist, before any tool changes them: a server that enforces missions takes its leases there.
 */
export async function makeWorld(
  s: TestServer,
  options: { beforeWork?: (cases: { caseId: string; otherCaseId: string }) => Promise<void> } = {},
): Promise<World> {
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
  await options.beforeWork?.({ caseId, otherCaseId });
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
  const library = await makeLibrary(s);
  const drafting = await makeDrafting(s, caseId, library.libraryDocumentId);
  return {
    ...library,
    ...drafting,
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

/** A ruling and an internal decision added through the tools, the ruling's holdings extracted. */
async function makeLibrary(s: TestServer) {
  const ruling = expectOk<{ document: { id: string } }>(
    await s.call('ceo', 'library_add', {
      text: RULING.replace('{tag}', 'walk'),
      title: 'כהן נ׳ הוועדה המקומית רעננה',
      number: 'עע"מ 9001/19',
    }),
  );
  const internal = expectOk<{ document: { id: string } }>(
    await s.call('ceo', 'internal_decision_add', {
      text: 'ערר 1/20 פלוני נ׳ הוועדה המקומית. הערר נדחה.',
      title: 'החלטה',
      number: 'ערר 1/20',
    }),
  );
  const libraryDocumentId = ruling.document.id;
  // Their text extracted (the worker's job), so that the tools reading it can.
  await drainAll(s);
  const extracted = expectOk<{ done: boolean }>(
    await s.call('analyst', 'halacha_extract', { document_id: libraryDocumentId, wait_ms: 10_000 }),
  );
  if (!extracted.done) throw new Error('the world’s holdings were not extracted in time');
  const holdings = expectOk<{ items: { halacha_id: string }[] }>(
    await s.call('analyst', 'halacha_list', { document_id: libraryDocumentId }),
  );
  const holding = holdings.items[0];
  if (holding === undefined) throw new Error('the world’s ruling yielded no holding');
  return { libraryDocumentId, internalDocumentId: internal.document.id, holdingId: holding.halacha_id };
}

/** A block, an export, a direction, a precedent, a missing precedent and feedback on `caseId`. */
async function makeDrafting(s: TestServer, caseId: string, libraryDocumentId: string) {
  expectOk(
    await s.call('analyst', 'block_write', {
      case_id: caseId,
      blocks: [{ kind: 'background', text: 'רקע העורר.' }],
    }),
  );
  const exported = expectOk<{ export_id: string }>(
    await s.call('analyst', 'draft_export', { case_id: caseId }),
  );
  const direction = expectOk<{ direction: { id: string } }>(
    await s.call('analyst', 'direction_propose', {
      case_id: caseId,
      title: 'דחייה',
      rationale: 'ההחלטה סבירה',
      outcome: 'rejection',
    }),
  );
  const precedent = expectOk<{ precedent: { precedent_id: string } }>(
    await s.call('analyst', 'precedent_attach', {
      case_id: caseId,
      section: 'discussion',
      citation: 'עע"מ 9001/19 כהן',
      quote: 'הלכה היא כי הקלה אינה כלי לשינוי ייעוד המקרקעין',
      document_id: libraryDocumentId,
      page: 1,
    }),
  );
  const missing = async (caseArg: Record<string, string>) =>
    expectOk<{ missing_precedent: { missing_precedent_id: string } }>(
      await s.call('analyst', 'missing_precedent_create', {
        citation: caseArg.case_id === undefined ? 'עע"מ 1234/18 לוי' : 'עע"מ 4321/17 פלוני',
        context: 'נדרש לדיון',
        ...caseArg,
      }),
    ).missing_precedent.missing_precedent_id;
  const feedback = expectOk<{ feedback: { id: string } }>(
    await s.call('analyst', 'feedback_record', { case_id: caseId, kind: 'style', text: 'קצר יותר' }),
  );
  return {
    exportId: exported.export_id,
    directionId: direction.direction.id,
    precedentId: precedent.precedent.precedent_id,
    missingPrecedentId: await missing({ case_id: caseId }),
    openMissingPrecedentId: await missing({}),
    feedbackId: feedback.feedback.id,
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
