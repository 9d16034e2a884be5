// The chair's workspace over HTTP (the browser suite drives the same pages in Chromium): the case page shows
// the draft numbered as the export, the latest check's findings beside their blocks, the directions, the
// holdings of the case's sources, the exports (the stored bytes download as a Word file) and the final version;
// the chair's own actions (feedback, the signed version, a direction, a holding) are tool calls as the owner,
// audited, each refused without the CSRF token or from another origin; approval requests read as what they mean.
import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { localDay } from '../../src/cases/schedule.ts';
import { MAX_UPLOAD_FORM_BYTES } from '../../src/console/http.ts';
import { stageLabels } from '../../src/console/labels.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { readZipTexts, zipNames } from '../../src/drafting/zip.ts';
import { approvalIdOf, forEachApprovalStack } from '../contract/_approvals.ts';
import { chairEdit } from '../functions/final/_chair.ts';
import { RULING_HOLDINGS } from '../functions/halacha/_halacha.ts';
import { type OwnerSession, signInOwner } from '../harness/owner.ts';
import { expectOk, type TestServer } from '../harness/server.ts';
import { type ChairCase, chairCase, DIRECTION } from './_chair.ts';

// The chair's edits of the export, as Word records them (the final version suite's edits, in other words).
const EDITS = {
  tracked: { find: 'בחלקה 12', replace: 'בחלקה 14' },
  added: { after: 'בגוש 6543', text: 'הבקשה הוגשה בשנת 2024.' },
  direct: { find: 'אין צו להוצאות.', replace: 'אין צו להוצאות, בנסיבות העניין.' },
  comment: { on: 'אין בה הוראה המתירה', text: 'להפנות לסעיף התכנית.' },
};

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A page's text a reader sees without opening an expert view: no tags, no <details> bodies, no attributes. */
const visible = (page: string) =>
  (page.split('<main>')[1] ?? '')
    .replace(/<details[\s\S]*?<\/details>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const lastAudit = async (s: TestServer, tool: string) =>
  (
    await s.db.db.select().from(auditLog).where(eq(auditLog.tool, tool)).orderBy(desc(auditLog.id)).limit(1)
  )[0];

/** The refusals every action must give: no token, another session's token, another origin, a cross-site post. */
async function refusedEverywhere(
  s: TestServer,
  owner: OwnerSession,
  other: OwnerSession,
  path: string,
  fields: Record<string, string>,
) {
  const missing = await owner.post(path, fields, { csrf: null });
  expect(missing.status).toBe(403);
  expect(await missing.text()).toContain('חסר אסימון אבטחה');
  expect((await owner.post(path, fields, { csrf: other.csrf })).status).toBe(403);
  const foreign: Record<string, string>[] = [
    { origin: 'https://evil.example' },
    { 'sec-fetch-site': 'cross-site', origin: 'null' },
  ];
  for (const headers of foreign) {
    const res = await s.fetch(path, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ ...fields, csrf: owner.csrf }),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('מאתר אחר');
  }
}

forEachApprovalStack('the chair’s workspace over HTTP', (env) => {
  let cc: ChairCase;
  let other: OwnerSession;
  beforeAll(async () => {
    cc = await chairCase(env().s);
    other = await signInOwner(env().s, 'avi', env().clock.now());
  }, 120_000);

  it('the case page shows the draft block by block, numbered as the Word file, with the latest check', async () => {
    const { owner } = env();
    const page = await (await owner.get(`/console/cases/${cc.caseId}`)).text();
    expect(page).not.toContain('אין עדיין טיוטה');
    // The export numbers the body's paragraphs continuously; the page shows the same numbers.
    expect(page).toMatch(/<span class="num">1\.<\/span> העוררים הם בעלי הזכויות בחלקה 12/);
    expect(page).toMatch(/<span class="num">2\.<\/span> הוועדה המקומית דחתה/);
    expect(page).toContain('id="block-discussion:plan"');
    expect(page).toContain('id="validation"');
    expect(page).toMatch(/\d+ שגיאות · \d+ אזהרות/);
    expect(page).toContain(DIRECTION.rationale);
    expect(page).toContain('מוצעת');
    expect(page).toContain(RULING_HOLDINGS[0].opens);
    expect(page).toContain('ממתינה לבחינה');
    expect(page).toContain(`/console/cases/${cc.caseId}/exports/${cc.export.export_id}`);
    expect(page).toContain('קליטת הנוסח החתום');
    expect(page).toContain('רישום ההערה');
    expect(page).toContain('<title>');
    expect(page).toContain('לשכת יו״ר ועדת הערר');
    expect(visible(page)).not.toMatch(UUID_RE);
  });

  it('the case list shows the stage workflow_status gives and what waits for the chair', async () => {
    const { s, owner } = env();
    const stage = expectOk<{ stage: string }>(
      await s.call('ceo', 'workflow_status', { case_id: cc.caseId }),
    ).stage;
    const page = await (await owner.get('/console/cases')).text();
    const row = page.split('<tr>').find((r) => r.includes(cc.caseId)) ?? '';
    expect(row).toContain(`<span class="badge">${stageLabels[stage]}</span>`);
    expect(row).toContain('2 הכוונות מוצעות · 3 הלכות לבחינה');
    expect(page).toContain('מועד להחלטה');
  });

  it('the case list shows the decision’s due date, and how many days are left when it is near', async () => {
    const { s, owner, clock } = env();
    const today = localDay(clock.now());
    const inFive = new Date(Date.parse(`${today}T12:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
    expectOk(await s.call('ceo', 'case_dates_set', { case_id: cc.caseId, decision_due_date: inFive }));
    const page = await (await owner.get('/console/cases')).text();
    const row = page.split('<tr>').find((r) => r.includes(cc.caseId)) ?? '';
    expect(row).toContain('בעוד 5 ימים');
    expect(row).toContain('class="badge pending"');
    // workflow_status warns of the same date.
    const status = expectOk<{ deadline: { days_left: number } | null }>(
      await s.call('ceo', 'workflow_status', { case_id: cc.caseId }),
    );
    expect(status.deadline?.days_left).toBe(5);
  });

  it('downloads an export: the stored bytes, as a Word file', async () => {
    const { owner } = env();
    const res = await owner.get(`/console/cases/${cc.caseId}/exports/${cc.export.export_id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="decision\.docx"; filename\*=UTF-8''/,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes).toEqual(cc.docx);
    expect(zipNames(bytes)).toContain('word/document.xml');
    expect((await readZipTexts(bytes, ['word/document.xml'])).get('word/document.xml')).toContain('בחלקה 12');
    const wrongCase = await owner.get(
      `/console/cases/00000000-0000-4000-8000-000000000000/exports/${cc.export.export_id}`,
    );
    expect(wrongCase.status).toBe(404);
    expect((await owner.get(`/console/cases/${cc.caseId}/exports/not-an-id`)).status).toBe(404);
    expect((await env().s.fetch(`/console/cases/${cc.caseId}/exports/${cc.export.export_id}`)).status).toBe(
      401,
    );
  });

  it('feedback: refused without the token or from elsewhere; recorded as the owner’s, feedback_list returns it', async () => {
    const { s, owner } = env();
    const path = `/console/cases/${cc.caseId}/feedback`;
    const fields = { block_kind: 'background', kind: 'style', text: 'הרקע ארוך מדי; לקצר לשלוש פסקאות.' };
    await refusedEverywhere(s, owner, other, path, fields);
    const listed = async () =>
      expectOk<{ items: { text: string; block_kind: string | null }[] }>(
        await s.call('writer', 'feedback_list', { case_id: cc.caseId }),
      ).items;
    expect(await listed()).toEqual([]);
    const res = await owner.post(path, fields);
    expect([res.status, res.headers.get('location')]).toEqual([
      303,
      `/console/cases/${cc.caseId}?done=feedback`,
    ]);
    const whole = await owner.post(path, { block_kind: '', kind: 'substance', text: 'ההחלטה כולה טובה.' });
    expect(whole.status).toBe(303);
    expect(await listed()).toMatchObject([
      { text: fields.text, block_kind: 'background' },
      { text: 'ההחלטה כולה טובה.', block_kind: null },
    ]);
    expect(await lastAudit(s, 'feedback_record')).toMatchObject({ agent: 'owner:dana', outcome: 'ok' });
    const page = await (await owner.get(`/console/cases/${cc.caseId}`)).text();
    expect(page).toContain(fields.text);
    const empty = await owner.post(path, { kind: 'style', text: '   ' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('יש לכתוב טקסט');
  });

  it('a direction approved in place: refused without the token or from elsewhere; then approved by the chair', async () => {
    const { s, owner } = env();
    const id = cc.directionIds[0] as string;
    const path = `/console/directions/${id}/approve`;
    const fields = { case_id: cc.caseId, reason: 'מקובל עליי' };
    await refusedEverywhere(s, owner, other, path, fields);
    const status = async () =>
      expectOk<{ items: { id: string; status: string; approved: { by: string } | null }[] }>(
        await s.call('ceo', 'direction_list', { case_id: cc.caseId }),
      ).items.find((d) => d.id === id);
    expect(await status()).toMatchObject({ status: 'proposed' });
    const noReason = await owner.post(path, { case_id: cc.caseId, reason: '' });
    expect(noReason.status).toBe(403);
    expect(await noReason.text()).toContain('יש לכתוב נימוק');
    const res = await owner.post(path, fields);
    expect([res.status, res.headers.get('location')]).toEqual([
      303,
      `/console/cases/${cc.caseId}?done=direction`,
    ]);
    expect(await status()).toMatchObject({ status: 'approved', approved: { by: 'dana' } });
    expect(await lastAudit(s, 'direction_approve')).toMatchObject({
      agent: 'owner:dana',
      outcome: 'ok',
      ownerReason: 'מקובל עליי',
    });
  });

  it('a holding approved or rejected in place: refused without the token or from elsewhere; then decided', async () => {
    const { s, owner } = env();
    const [approve, reject] = cc.holdingIds as [string, string];
    const path = (id: string) => `/console/holdings/${id}/review`;
    await refusedEverywhere(s, owner, other, path(approve), {
      case_id: cc.caseId,
      decision: 'approve',
      reason: 'x',
    });
    const statusOf = async (id: string) =>
      expectOk<{ items: { halacha_id: string; status: string; reviewed_by: string | null }[] }>(
        await s.call('researcher', 'halacha_list', { document_id: cc.rulingId, status: 'all' }),
      ).items.find((h) => h.halacha_id === id);
    expect(await statusOf(approve)).toMatchObject({ status: 'pending' });
    const ok = await owner.post(path(approve), {
      case_id: cc.caseId,
      decision: 'approve',
      reason: 'הלכה ברורה',
    });
    expect([ok.status, ok.headers.get('location')]).toEqual([
      303,
      `/console/cases/${cc.caseId}?done=holding_approved`,
    ]);
    const no = await owner.post(path(reject), {
      case_id: cc.caseId,
      decision: 'reject',
      reason: 'זו טענת צד',
    });
    expect(no.headers.get('location')).toBe(`/console/cases/${cc.caseId}?done=holding_rejected`);
    expect(await statusOf(approve)).toMatchObject({ status: 'approved', reviewed_by: 'dana' });
    expect(await statusOf(reject)).toMatchObject({ status: 'rejected', reviewed_by: 'dana' });
    expect(await lastAudit(s, 'halacha_review')).toMatchObject({ agent: 'owner:dana', outcome: 'ok' });
  });

  it('approval requests read as what they mean: the direction, the holding, the file; nothing raw', async () => {
    const { s, owner } = env();
    const dirId = cc.directionIds[1] as string;
    const direction = approvalIdOf(
      await s.call('ceo', 'direction_approve', { direction_id: dirId, reason: 'החלופה עדיפה' }),
    );
    const holding = approvalIdOf(
      await s.call('ceo', 'halacha_review', {
        halacha_id: cc.holdingIds[2],
        decision: 'approve',
        reason: 'לאישור',
      }),
    );
    const edited = await chairEdit(cc.docx, EDITS);
    const base64 = Buffer.from(edited).toString('base64');
    const file = approvalIdOf(
      await s.call('ceo', 'final_version_ingest', {
        case_id: cc.caseId,
        content_base64: base64,
        reason: 'היו״ר חתמה',
      }),
    );
    const dirPage = await (await owner.get(`/console/approvals/${direction}`)).text();
    expect(visible(dirPage)).toContain('קבלה חלקית');
    expect(visible(dirPage)).toContain('חלופה: לאשר את החלק שאינו משנה ייעוד.');
    expect(visible(dirPage)).toContain('אם תאשרו: ההכוונה «קבלה חלקית» תהיה ההכוונה המאושרת של התיק');
    const holdPage = await (await owner.get(`/console/approvals/${holding}`)).text();
    expect(visible(holdPage)).toContain(RULING_HOLDINGS[2].opens);
    expect(visible(holdPage)).toContain('עע"מ 9001/19');
    expect(visible(holdPage)).toContain('ההלכה תאושר');
    const filePage = await (await owner.get(`/console/approvals/${file}`)).text();
    expect(visible(filePage)).toMatch(/מסמך Word · \d+(\.\d)? ק״ב/);
    expect(visible(filePage)).toContain('רקע ·');
    expect(visible(filePage)).toMatch(/[1-9]\d* שינויים במעקב · 1 הערות/);
    expect(visible(filePage)).toContain('בחלקה 14');
    expect(visible(filePage)).toContain('הנוסח החתום ייקלט כנוסח הסופי');
    for (const p of [dirPage, holdPage, filePage]) expect(visible(p)).not.toMatch(UUID_RE);
    // The file's base64 is nowhere on the page, not even in the expert view.
    expect(filePage).not.toContain(base64.slice(0, 200));
    const list = await (await owner.get('/console/approvals')).text();
    expect(visible(list)).not.toMatch(UUID_RE);
    expect(visible(list)).not.toContain('direction_approve');
  });

  it('the signed version uploaded by the chair: refused without the token or from elsewhere; then taken in', async () => {
    const { s, owner } = env();
    const path = `/console/cases/${cc.caseId}/final`;
    const edited = await chairEdit(cc.docx, EDITS);
    const multipart = (csrf: string | null, headers: Record<string, string> = {}) => {
      const body = new FormData();
      if (csrf !== null) body.set('csrf', csrf);
      body.set('reason', 'חתמתי');
      body.set('file', new Blob([new Uint8Array(edited)]), 'signed.docx');
      return s.fetch(path, {
        method: 'POST',
        headers: { cookie: owner.cookie, ...headers },
        body,
        redirect: 'manual',
      });
    };
    expect((await multipart(null)).status).toBe(403);
    expect((await multipart(other.csrf)).status).toBe(403);
    expect((await multipart(owner.csrf, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await multipart(owner.csrf, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const before = expectOk<{ case: { status: string } }>(
      await s.call('ceo', 'case_get', { case_id: cc.caseId }),
    );
    expect(before.case.status).not.toBe('decided');
    const res = await multipart(owner.csrf);
    expect([res.status, res.headers.get('location')]).toEqual([
      303,
      `/console/cases/${cc.caseId}?done=final`,
    ]);
    const after = expectOk<{ case: { status: string } }>(
      await s.call('ceo', 'case_get', { case_id: cc.caseId }),
    );
    expect(after.case.status).toBe('decided');
    const audit = await lastAudit(s, 'final_version_ingest');
    expect(audit).toMatchObject({ agent: 'owner:dana', outcome: 'ok', ownerReason: 'חתמתי' });
    const page = await (await owner.get(`/console/cases/${cc.caseId}`)).text();
    expect(page).toContain('בחלקה 14');
    expect(page).toContain('מה שונה בכל חלק');
    expect(page).toMatch(/<td>רקע<\/td><td>[1-9]\d*%<\/td><td>[1-9]\d*<\/td><td>0<\/td>/);
    expect(page).toContain(EDITS.comment.text);
    const [ok] = await s.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tool, 'final_version_ingest'), eq(auditLog.agent, 'owner:dana')));
    expect(ok).toBeDefined();
  });

  it('a form larger than the upload cap is refused before it is read', async () => {
    const { s, owner } = env();
    const body = new FormData();
    body.set('csrf', owner.csrf);
    body.set('file', new Blob([new Uint8Array(MAX_UPLOAD_FORM_BYTES + 1)]), 'huge.docx');
    const res = await s.fetch(`/console/cases/${cc.caseId}/final`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body,
      redirect: 'manual',
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('הטופס גדול מדי');
  });

  it('a text final version and an empty form', async () => {
    const { s, owner } = env();
    const created = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', {
        case_number: `ערר ${crypto.randomUUID().slice(0, 6)}`,
        title: 'טקסט',
      }),
    ).case.id;
    const empty = await owner.post(`/console/cases/${created}/final`, { text: '', reason: 'x' });
    expect(empty.status).toBe(400);
    const res = await owner.post(`/console/cases/${created}/final`, { text: 'הערר נדחה.', reason: 'נחתם' });
    expect(res.status).toBe(303);
    const page = await (await owner.get(`/console/cases/${created}`)).text();
    expect(page).toContain('הערר נדחה.');
  });
});
