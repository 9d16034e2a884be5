// The console's pages and the owner's actions on them: home, approvals, missions, cases. Each action is a tool
// call through the kernel as the owner (act.ts), audited as the agents' calls are.
import type { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { liveCase } from '../cases/live.ts';
import { errorCatalogue } from '../contract/errors.ts';
import { count, eq } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { haiMissions } from '../db/schema/hai.ts';
import { ownerApprovals } from '../db/schema/owners.ts';
import { approvalById, approvalsIn } from '../owner/approvals.ts';
import type { OwnerActor } from './act.ts';
import {
  type ConsoleContext,
  type ConsoleEnv,
  checked,
  form,
  formPost,
  render,
  section,
  UUID,
} from './http.ts';
import { approvalCard, approvalsBody, casesNamed } from './pages/approvals.ts';
import { caseBody, casesBody } from './pages/cases.ts';
import { homeBody } from './pages/home.ts';
import { errorBody } from './pages/login.ts';
import { missionBody, missionsBody } from './pages/missions.ts';
import { caseDetail, caseList, inboxList, missionDetail, missionList } from './queries.ts';

/**
 * The route handlers of one owner action (a tool call as the owner): it redirects to `back` with a fixed
 * notice, or shows why it was refused.
 */
const actionsOf =
  (actor: OwnerActor) =>
  (
    tool: string,
    args: (c: ConsoleContext) => Record<string, unknown>,
    back: (c: ConsoleContext) => string,
    done: (c: ConsoleContext) => string,
  ) =>
    [
      formPost,
      checked,
      async (c: ConsoleContext) => {
        const envelope = await actor.act(c, c.get('owner'), tool, args(c));
        if (envelope.ok) return c.redirect(`${back(c)}?done=${done(c)}`, 303);
        const status = errorCatalogue[envelope.error.code].http as ContentfulStatusCode;
        const issues =
          (envelope.error.details?.issues as { path: string; message: string }[] | undefined) ?? [];
        const text = issues.some((i) => i.path === 'reason') ? 'יש לכתוב נימוק.' : envelope.error.message;
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
    const named = await casesNamed(db, pending);
    return render(
      c,
      'בקשות אישור',
      approvalsBody(pending, decided, named, c.get('csrf')),
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
      approvalCard(row, await casesNamed(db, [row]), c.get('csrf')),
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
    render(c, 'תיקים', casesBody(await caseList(c.get('services').db)), section('cases')(c)),
  );

  con.get('/cases/:id', async (c) => {
    const id = c.req.param('id');
    const db = c.get('services').db;
    const detail = UUID.test(id) ? await caseDetail(db, id) : null;
    if (detail === null)
      return render(c, 'תיק לא נמצא', errorBody('אין תיק כזה (או שנמחק).'), section('cases')(c), 404);
    const body = await caseBody({ db, detail, csrf: c.get('csrf'), canCall: (t) => actor.grants.has(t) });
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
}
