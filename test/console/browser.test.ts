// The owner's console in a real browser: Debian's Chromium (/usr/bin/chromium) driven by playwright-core,
// against a server in approval mode on a loopback port. Screenshots of every page go to
// test-output/console/ (git-ignored). The agents' side runs through the official MCP client as usual.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { root } from '../../scripts/docs/docs.ts';
import { addOwner, LOGIN_LINK_TTL_MS, loginPath, mintLoginLink } from '../../src/owner/accounts.ts';
import { approvalIdOf } from '../contract/_approvals.ts';
import { seedDocument, textBytes } from '../harness/documents.ts';
import { callAsOwner } from '../harness/owner.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { CHROMIUM, describeWithChromium } from './_chromium.ts';

/** The password the chair sets through her enrolment link. */
const PASSWORD = 'ועדת ערר מחוזית חיפה';
const OUT = join(root, 'test-output', 'console');

describeWithChromium('the owner console in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const cspViolations: string[] = [];
  const caseIds: string[] = [];
  let missionId = '';
  let leaseId = '';

  const shot = (name: string) => page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
  const go = (path: string) => page.goto(`${s.url}${path}`);
  const newCase = async (number: string, title: string) => {
    const c = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', {
        case_number: number,
        title,
        appellant: 'משפחת כהן',
        respondent: 'הוועדה המקומית חיפה',
      }),
    ).case.id;
    caseIds.push(c);
    return c;
  };
  const askToDelete = async (caseId: string, reason: string) =>
    approvalIdOf(await s.call('ceo', 'case_delete', { case_id: caseId, reason }));

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    s = await startTestServer({ socket: true, env: { OWNER_GATE: 'approval' }, now });
    await addOwner(s.db.db, 'dana');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 }, locale: 'he-IL' });
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    // What the pages show: cases with a document, and a mission with a session, evidence, a parked item and
    // a proposed next step (the project is bound by the owner, whose own call needs only a reason).
    const first = await newCase('ערר 1024/25', 'היטל השבחה — רחוב הרצל 12, חיפה');
    await newCase('ערר 2048/25', 'היתר בנייה — הקלה בקווי בניין');
    await newCase('ערר 4096/25', 'שימוש חורג — מחסן למגורים');
    await seedDocument(s.db.db, {
      corpus: 'case',
      caseId: first,
      title: 'כתב הערר',
      filename: 'appeal.txt',
      bytes: textBytes('כתב ערר על החלטת הוועדה המקומית\fנספחים'),
      declaredMediaType: 'text/plain',
    });
    expectOk(
      await callAsOwner(s, 'dana', 'hai_bind_project', {
        project_id: 'appeal-1024',
        device_id: 'dev-1',
        mount_path: '/srv/appeal-1024',
        reason: 'הפרויקט של הערר',
      }),
    );
    missionId = expectOk<{ mission: { id: string } }>(
      await s.call('ceo', 'hai_open_mission', {
        name: 'analysis-1024',
        title: 'ניתוח ערר 1024/25',
        project_id: 'appeal-1024',
        goal: 'למפות את העובדות ואת טענות הצדדים עם מראי מקום',
        in_scope: ['analysis', 'research'],
        out_of_scope: ['drafting'],
        criteria: [
          {
            id: 'facts-mapped',
            description: 'העובדות ממופות עם עמודים',
            verification: 'qa בודק כל עובדה מול מקורה',
          },
          {
            id: 'law-verified',
            description: 'כל אסמכתה אומתה',
            verification: 'researcher קורא שוב כל ציטוט',
          },
        ],
        expires_at: new Date(now().getTime() + 7 * 86_400_000).toISOString(),
        max_sessions: 2,
      }),
    ).mission.id;
    const lease = (agent: 'analyst' | 'qa') =>
      s.call(agent, 'hai_authorize_session', {
        mission_id: missionId,
        contract_version: 1,
        device_id: 'dev-1',
      });
    leaseId = expectOk<{ lease: { lease_id: string } }>(await lease('analyst')).lease.lease_id;
    const qaLease = expectOk<{ lease: { lease_id: string } }>(await lease('qa')).lease.lease_id;
    expectOk(
      await s.call('qa', 'hai_proof', {
        lease_id: qaLease,
        criterion_id: 'facts-mapped',
        checked: 'כל עובדה ברקע מול הפרוטוקול',
        result: 'pass',
        evidence: 'עמודים 1–4 של כתב הערר',
        device_id: 'dev-1',
      }),
    );
    expectOk(
      await s.call('ceo', 'hai_park_item', {
        mission_id: missionId,
        item: 'השוואה לפסיקה זרה',
        rationale: 'מחוץ לתחום החוזה',
      }),
    );
    expectOk(
      await s.call('analyst', 'hai_propose_next_step', {
        project_id: 'appeal-1024',
        content: 'לאמת את שלוש האסמכתאות שנותרו',
      }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('an expired link says so and signs no one in', async () => {
    const { token } = await mintLoginLink(s.db.db, 'dana', now());
    offset += LOGIN_LINK_TTL_MS + 60_000;
    const res = await go(loginPath(token));
    expect(res?.status()).toBe(410);
    await expect(page.locator('[role=alert]').textContent()).resolves.toContain('תוקף קישור הכניסה פג');
    await shot('01-expired-link');
    await go('/console');
    await expect(page.locator('h1').textContent()).resolves.toBe('נדרשת כניסה');
  });

  it('signs in by link; the link works once', async () => {
    const { token } = await mintLoginLink(s.db.db, 'dana', now());
    await go(loginPath(token));
    await page.getByLabel('סיסמה חדשה').fill(PASSWORD);
    await page.getByLabel('הסיסמה שוב').fill(PASSWORD);
    await shot('02-login');
    await page.getByRole('button', { name: 'כניסה' }).click();
    await page.waitForURL(`${s.url}/console`);
    await expect(page.locator('h1').textContent()).resolves.toBe('שלום, dana');
    await shot('03-home');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'chambers_owner')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
    });
    const again = await browser.newPage();
    expect((await again.goto(`${s.url}${loginPath(token)}`))?.status()).toBe(410);
    await again.close();
  });

  it('shows the request an agent’s refused call left; approving it lets the retry through once', async () => {
    const target = caseIds[1] as string;
    const id = await askToDelete(target, 'נפתח בטעות, כפול לערר 1024/25');
    await go('/console/approvals');
    const card = page.locator(`#approval-${id}`);
    // What the call means (the case by number and title, what deleting does), who asks and why.
    await expect(card.textContent()).resolves.toMatch(
      /מחיקת תיק[\s\S]*מנהל\/ת הלשכה[\s\S]*ערר 2048\/25[\s\S]*לא יהיו עוד נגישים[\s\S]*נפתח בטעות, כפול לערר 1024\/25/,
    );
    await shot('04-approvals-pending');
    await card.locator('textarea[name=reason]').fill('מאושר: התיק נפתח בטעות');
    await card.getByRole('button', { name: 'אישור' }).click();
    await page.waitForURL(`${s.url}/console/approvals/${id}?done=approved`);
    await expect(page.locator('[role=status]').textContent()).resolves.toContain('הבקשה אושרה');
    await shot('05-approval-approved');
    const done = await s.call('ceo', 'case_delete', { case_id: target, approval_id: id });
    expect(expectOk<{ case_id: string }>(done).case_id).toBe(target);
    // A retry with the used approval replays the deletion's result; nothing is deleted twice.
    expect(await s.call('ceo', 'case_delete', { case_id: target, approval_id: id })).toEqual({
      ...done,
      replayed: true,
    });
    await page.reload();
    await expect(page.locator('.badge').first().textContent()).resolves.toBe('אושרה ונוצלה');
  });

  it('rejecting a request refuses the retry with the owner’s reason', async () => {
    const target = caseIds[2] as string;
    const id = await askToDelete(target, 'אין בו צורך');
    await go(`/console/approvals/${id}`);
    await shot('06-approval-detail');
    await page.locator('textarea[name=reason]').fill('התיק עדיין פעיל; לא למחוק');
    await page.getByRole('button', { name: 'דחייה' }).click();
    await page.waitForURL(`${s.url}/console/approvals/${id}?done=rejected`);
    await shot('07-approval-rejected');
    const refused = await s.call('ceo', 'case_delete', { case_id: target, approval_id: id });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'approval_rejected', details: { decision_reason: 'התיק עדיין פעיל; לא למחוק' } },
    });
  });

  it('a form posted without its CSRF token does nothing', async () => {
    const target = caseIds[2] as string;
    const id = await askToDelete(target, 'בקשה שנייה');
    await go(`/console/approvals/${id}`);
    await page.locator('form.decide input[name=csrf]').evaluate((input) => input.remove());
    await page.locator('textarea[name=reason]').fill('ניסיון בלי אסימון');
    const [response] = await Promise.all([
      page.waitForResponse(`${s.url}/console/approvals/${id}`),
      page.getByRole('button', { name: 'אישור' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(page.locator('[role=alert]').textContent()).resolves.toContain('חסר אסימון אבטחה');
    await shot('08-csrf-refused');
    expect(errorCode(await s.call('ceo', 'case_delete', { case_id: target, approval_id: id }))).toBe(
      'approval_pending',
    );
  });

  it('shows missions; revoking a session ends it, accepting the proposal makes it the next step', async () => {
    await go('/console/missions');
    await shot('09-missions');
    await page.getByRole('link', { name: 'ניתוח ערר 1024/25' }).click();
    await expect(page.locator('main').textContent()).resolves.toMatch(
      /גרסה 1[\s\S]*facts-mapped[\s\S]*עבר[\s\S]*השוואה לפסיקה זרה[\s\S]*לאמת את שלוש האסמכתאות/,
    );
    await shot('10-mission');
    await page.locator(`#revoke-${leaseId}`).fill('הסשן נתקע');
    await page.locator(`form[action="/console/leases/${leaseId}/revoke"] button`).click();
    await page.waitForURL(`${s.url}/console/missions/${missionId}?done=revoked`);
    expect(errorCode(await s.call('analyst', 'hai_get_contract', { lease_id: leaseId }))).toBe(
      'lease_revoked',
    );
    await page.locator('#accept-reason').fill('ההצעה מקובלת');
    await page.getByRole('button', { name: 'אישור ההצעה כצעד הבא' }).click();
    await page.waitForURL(`${s.url}/console/missions/${missionId}?done=accepted`);
    await shot('11-mission-after-actions');
  });

  it('renders a case page in Hebrew, right to left', async () => {
    await go('/console/cases');
    await shot('12-cases');
    await page.getByRole('link', { name: 'ערר 1024/25' }).click();
    const layout = await page.evaluate(() => {
      // Where the heading's text sits: in right-to-left text it starts at the right edge of the column.
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('h1') as Node);
      const text = range.getBoundingClientRect();
      const column = (document.querySelector('main') as Element).getBoundingClientRect();
      return {
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
        direction: getComputedStyle(document.body).direction,
        rightGap: column.right - text.right,
        leftGap: text.left - column.left,
      };
    });
    expect(layout).toMatchObject({ lang: 'he', dir: 'rtl', direction: 'rtl' });
    expect(layout.rightGap).toBeLessThan(layout.leftGap);
    await expect(page.locator('#documents').textContent()).resolves.toContain('כתב הערר');
    await expect(page.locator('#draft').textContent()).resolves.toContain('אין עדיין טיוטה');
    await shot('13-case');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ['/console/approvals', '14-phone-approvals'],
      [`/console/cases/${caseIds[0]}`, '15-phone-case'],
    ] as const) {
      await go(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(name);
    }
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('logs out: the session ends and the pages close', async () => {
    await go('/console');
    await page.getByRole('button', { name: 'יציאה' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('יצאת מהמסוף');
    await go('/console/approvals');
    await expect(page.locator('h1').textContent()).resolves.toBe('נדרשת כניסה');
    await shot('16-signed-out');
    expect(cspViolations).toEqual([]);
  });

  it('signs in again with her password alone, no link; a wrong password is refused in Hebrew', async () => {
    await go('/console/login');
    const html = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
    }));
    expect(html).toEqual({ lang: 'he', dir: 'rtl' });
    await page.getByLabel('שם משתמש').fill('dana');
    await page.getByLabel('סיסמה', { exact: true }).fill(`${PASSWORD}!`);
    await page.getByRole('button', { name: 'כניסה' }).click();
    await expect(page.locator('[role=alert]').textContent()).resolves.toContain('שם המשתמש או הסיסמה שגויים');
    await shot('17-wrong-password');
    // The name stays filled in; only the password is typed again.
    await expect(page.getByLabel('שם משתמש').inputValue()).resolves.toBe('dana');
    await page.getByLabel('סיסמה', { exact: true }).fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${s.url}/console`);
    await expect(page.locator('h1').textContent()).resolves.toBe('שלום, dana');
    await go('/console/approvals');
    await expect(page.locator('h1').textContent()).resolves.not.toBe('נדרשת כניסה');
    await shot('18-signed-in-by-password');
    expect(cspViolations).toEqual([]);
  });
});
