// The console's pages and the owner's actions on them: home, approvals, missions, cases. Each action is a tool
// call through the kernel as the owner (act.ts), audited as the agents' calls are.
import type { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { findLiveCase, liveCase } from '../cases/live.ts';
import { errorCatalogue } from '../contract/errors.ts';
import { and, count, eq } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { draftExports } from '../db/schema/drafting.ts';
import { haiMissions } from '../db/schema/hai.ts';
import { ownerApprovals } from '../db/schema/owners.ts';
import type { Db } from '../db/types.ts';
import { toBase64 } from '../documents/blobs.ts';
import { approvalById, approvalsIn } from '../owner/approvals.ts';
import type { OwnerActor } from './act.ts';
import {
  type ConsoleContext,
  type ConsoleEnv,
  checked,
  file,
  form,
  formPost,
  render,
  section,
  UUID,
  uploadPost,
} from './http.ts';
import { refusals } from './labels.ts';
import { approvalCard, approvalsBody, meaningsOf } from './pages/approvals.ts';
import { caseBody, casesBody } from './pages/cases.ts';
import { homeBody } from './pages/home.ts';
import { errorBody } from './pages/login.ts';
import { missionBody, missionsBody } from './pages/missions.ts';
import { caseDetail, inboxList, missionDetail, missionList } from './queries.ts';
import { caseListWithStage, caseWorkspace } from './workspace.ts';

/**
 * The route handlers of one owner action (a tool call as the owner): it redirects to `back` with a fixed
 * notice, or shows why it was refused.
 */
const actionsOf =
  (actor: OwnerActor) =>
  (
    tool: string,
    args: (c: ConsoleContext) => Record<string, unknown> | Promise<Record<string, unknown>>,
    back: (c: ConsoleContext) => string,
    done: (c: ConsoleContext) => string,
    post: typeof formPost = formPost,
  ) =>
    [
      post,
      checked,
      async (c: ConsoleContext) => {
        const envelope = await actor.act(c, c.get('owner'), tool, await args(c));
        if (envelope.ok) return c.redirect(`${back(c)}?done=${done(c)}`, 303);
        const status = errorCatalogue[envelope.error.code].http as ContentfulStatusCode;
        const issues =
          (envelope.error.details?.issues as { path: string; message: string }[] | undefined) ?? [];
        const missing = (envelope.error.details?.missing as string[] | undefined) ?? [];
        const text =
          issues.some((i) => i.path === 'reason') || missing.includes('reason')
            ? 'יש לכתוב נימוק.'
            : issues.some((i) => i.path === 'text')
              ? 'יש לכתוב טקסט.'
              : (refusals[envelope.error.code] ?? envelope.error.message);
        return render(c, 'הפעולה לא בוצעה', errorBody(text, envelope.error.hint), {}, status);
      },
    ] as const;

/** The pages behind the session check, and the owner's actions. */
export function pageRoutes(con: Hono<ConsoleEnv>, actor: OwnerActor, o: { now(): Date }): void {
  const action = actionsOf(actor);

  con.get('/', async (c) => {
    const db = c.get('services').db;
    const [pending, missions, open] = await Promise.all([
      db.select({ n: count() }).from(ownerApprovals).where(eq(ownerApprovals.state, 'pending')),
      db.select({ n: count() }).from(haiMissions).where(eq(haiMissions.state, 'active')),
      db.select({ n: count() }).from(cases).where(liveCase),
    ]);
    return render(
      c,
      `שלום, ${c.get('owner').name}`,
      homeBody({ pending: pending[0]?.n ?? 0, activeMissions: missions[0]?.n ?? 0, cases: open[0]?.n ?? 0 }),
      section('home')(c),
    );
  });

  con.get('/approvals', async (c) => {
    const db = c.get('services').db;
    const [pending, decided] = await Promise.all([
      approvalsIn(db, ['pending']),
      approvalsIn(db, ['approved', 'rejected', 'used'], 30),
    ]);
    const meanings = await meaningsOf(db, [...pending, ...decided]);
    return render(
      c,
      'בקשות אישור',
      approvalsBody(pending, decided, meanings, c.get('csrf')),
      section('approvals')(c),
    );
  });

  con.get('/approvals/:id', async (c) => {
    const id = c.req.param('id');
    const db = c.get('services').db;
    const row = UUID.test(id) ? await approvalById(db, id) : null;
    if (row === null)
      return render(c, 'בקשה לא נמצאה', errorBody('אין בקשת אישור כזו.'), section('approvals')(c), 404);
    return render(
      c,
      'בקשת אישור',
      approvalCard(row, await meaningsOf(db, [row]), c.get('csrf')),
      section('approvals')(c),
    );
  });

  con.post(
    '/approvals/:id',
    ...action(
      'approval_review',
      (c) => ({ approval_id: c.req.param('id'), decision: form(c, 'decision'), reason: form(c, 'reason') }),
      (c) => `/console/approvals/${c.req.param('id')}`,
      (c) => (form(c, 'decision') === 'reject' ? 'rejected' : 'approved'),
    ),
  );

  con.get('/missions', async (c) => {
    const db = c.get('services').db;
    const [rows, inbox] = await Promise.all([missionList(db), inboxList(db)]);
    return render(c, 'משימות', missionsBody(rows, inbox), section('missions')(c));
  });

  con.get('/missions/:id', async (c) => {
    const id = c.req.param('id');
    const d = UUID.test(id) ? await missionDetail(c.get('services').db, id, o.now()) : null;
    if (d === null)
      return render(c, 'משימה לא נמצאה', errorBody('אין משימה כזו.'), section('missions')(c), 404);
    return render(c, d.mission.title, missionBody(d, c.get('csrf')), section('missions')(c));
  });

  const missionPage = (c: ConsoleContext) => {
    const id = form(c, 'mission_id');
    return UUID.test(id) ? `/console/missions/${id}` : '/console/missions';
  };
  con.post(
    '/missions/:id/criteria/:criterion/confirm',
    ...action(
      'hai_confirm_criterion',
      (c) => ({
        mission_id: c.req.param('id'),
        criterion_id: c.req.param('criterion'),
        reason: form(c, 'reason'),
      }),
      (c) => {
        const id = c.req.param('id') ?? '';
        return UUID.test(id) ? `/console/missions/${id}` : '/console/missions';
      },
      () => 'confirmed',
    ),
  );
  con.post(
    '/leases/:id/revoke',
    ...action(
      'hai_revoke_session',
      (c) => ({ lease_id: c.req.param('id'), reason: form(c, 'reason') }),
      missionPage,
      () => 'revoked',
    ),
  );
  con.post(
    '/projects/:id/next-step',
    ...action(
      'hai_accept_next_step',
      (c) => ({
        project_id: c.req.param('id'),
        proposal_version: form(c, 'proposal_version'),
        reason: form(c, 'reason'),
      }),
      missionPage,
      () => 'accepted',
    ),
  );

  con.get('/cases', async (c) =>
    render(
      c,
      'תיקים',
      casesBody(await caseListWithStage(c.get('services').db, o.now())),
      section('cases')(c),
    ),
  );

  con.get('/cases/:id', async (c) => {
    const id = c.req.param('id');
    const db = c.get('services').db;
    const detail = UUID.test(id) ? await caseDetail(db, id) : null;
    if (detail === null)
      return render(c, 'תיק לא נמצא', errorBody('אין תיק כזה (או שנמחק).'), section('cases')(c), 404);
    const workspace = await caseWorkspace(db, detail.row);
    const body = await caseBody({
      db,
      detail,
      workspace,
      csrf: c.get('csrf'),
      canCall: (t) => actor.grants.has(t),
    });
    return render(c, `${detail.row.caseNumber} — ${detail.row.title}`, body, section('cases')(c));
  });

  con.post(
    '/cases/:id/delete',
    ...action(
      'case_delete',
      (c) => ({ case_id: c.req.param('id'), reason: form(c, 'reason') }),
      () => '/console/cases',
      () => 'deleted',
    ),
  );

  // The chair's workspace on a case: the Word files exported, her remarks, the signed final version, and her
  // decisions on directions and holdings in place. Each is a tool call as the owner, audited like an agent's.
  con.get('/cases/:id/exports/:exportId', async (c) => {
    const id = c.req.param('id');
    const exportId = c.req.param('exportId');
    const db = c.get('services').db;
    const found =
      UUID.test(id) && UUID.test(exportId) && (await findLiveCase(db, id)) !== undefined
        ? await exportFile(db, id, exportId)
        : undefined;
    if (found === undefined)
      return render(c, 'הקובץ לא נמצא', errorBody('אין קובץ כזה בתיק.'), section('cases')(c), 404);
    // A copy in its own ArrayBuffer: the driver may hand back a view into a larger buffer.
    return c.body(new Uint8Array(found.content).buffer, 200, {
      'Content-Type': DOCX_TYPE,
      'Content-Disposition': attachment(`${found.caseNumber}.docx`),
      'Content-Length': String(found.content.byteLength),
    });
  });

  const casePage = (c: ConsoleContext) => {
    const id = form(c, 'case_id') || c.req.param('id') || '';
    return UUID.test(id) ? `/console/cases/${id}` : '/console/cases';
  };

  con.post(
    '/cases/:id/feedback',
    ...action(
      'feedback_record',
      (c) => ({
        case_id: c.req.param('id'),
        ...(form(c, 'block_kind') === '' ? {} : { block_kind: form(c, 'block_kind') }),
        kind: form(c, 'kind'),
        text: form(c, 'text'),
      }),
      casePage,
      () => 'feedback',
    ),
  );

  con.post(
    '/cases/:id/final',
    ...action(
      'final_version_ingest',
      async (c) => {
        const signed = file(c, 'file');
        const content =
          signed === undefined
            ? { text: form(c, 'text') }
            : { content_base64: toBase64(new Uint8Array(await signed.arrayBuffer())) };
        return { case_id: c.req.param('id'), ...content, reason: form(c, 'reason') };
      },
      casePage,
      () => 'final',
      uploadPost,
    ),
  );

  con.post(
    '/directions/:id/approve',
    ...action(
      'direction_approve',
      (c) => ({ direction_id: c.req.param('id'), reason: form(c, 'reason') }),
      casePage,
      () => 'direction',
    ),
  );

  con.post(
    '/directions/:id/reject',
    ...action(
      'direction_review',
      (c) => ({ direction_id: c.req.param('id'), reason: form(c, 'reason') }),
      casePage,
      () => 'direction_rejected',
    ),
  );

  con.post(
    '/holdings/:id/review',
    ...action(
      'halacha_review',
      (c) => ({ halacha_id: c.req.param('id'), decision: form(c, 'decision'), reason: form(c, 'reason') }),
      casePage,
      (c) => (form(c, 'decision') === 'reject' ? 'holding_rejected' : 'holding_approved'),
    ),
  );
}

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A download's name: an ASCII stand-in, and the case number as it is (RFC 6266, RFC 8187). */
const attachment = (name: string) =>
  `attachment; filename="decision.docx"; filename*=UTF-8''${encodeURIComponent(name.replace(/[\\/]/g, '-'))}`;

/** The stored bytes of one of a case's exports. */
async function exportFile(db: Db, caseId: string, exportId: string) {
  const [row] = await db
    .select({ content: draftExports.content, caseNumber: cases.caseNumber })
    .from(draftExports)
    .innerJoin(cases, eq(cases.id, draftExports.caseId))
    .where(and(eq(draftExports.id, exportId), eq(draftExports.caseId, caseId)));
  return row;
}
