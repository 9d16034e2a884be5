// The chair's workspace in a real browser: Debian's Chromium driven by playwright-core (as browser.test.ts),
// against a server in approval mode. The chair reads a case's draft and findings, downloads the Word file,
// approves a direction and a holding seeing their text, reads an agent's request as what it means, uploads the
// signed version and writes a remark that feedback_list then returns. Every page is checked with axe-core (no
// serious or critical violation), is Hebrew and right to left, and its primary action is reached by Tab.
// Screenshots go to test-output/console/ (git-ignored).
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { root } from '../../scripts/docs/docs.ts';
import { zipNames } from '../../src/drafting/zip.ts';
import { addOwner, loginPath, mintLoginLink } from '../../src/owner/accounts.ts';
import { approvalIdOf } from '../contract/_approvals.ts';
import { chairEdit } from '../functions/final/_chair.ts';
import { RULING_HOLDINGS } from '../functions/halacha/_halacha.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { type ChairCase, chairCase, DIRECTION } from './_chair.ts';
import { CHROMIUM, describeWithChromium } from './_chromium.ts';

const OUT = join(root, 'test-output', 'console');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

describeWithChromium('the chair’s workspace in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let cc: ChairCase;
  const cspViolations: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(OUT, `chair-${name}.png`), fullPage: true });
  const go = (path: string) => page.goto(`${s.url}${path}`);

  /** axe-core over the page: its serious and critical violations (none allowed). */
  const serious = async (): Promise<string[]> => {
    // Evaluated over the DevTools protocol, which the page's Content-Security-Policy does not govern.
    await page.evaluate(axe.source);
    const violations = await page.evaluate(async () => {
      const run = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } })
        .axe.run;
      return (await run(document)).violations;
    });
    return (violations as AxeViolation[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  };

  /** The page is Hebrew and right to left, axe finds nothing serious, and Tab reaches its primary action. */
  const accessible = async (primary: Locator) => {
    const root = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      direction: getComputedStyle(document.body).direction,
    }));
    expect(root).toEqual({ lang: 'he', dir: 'rtl', direction: 'rtl' });
    expect(await serious()).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    const target = await primary.elementHandle();
    if (target === null) throw new Error('no primary action on the page');
    for (let i = 0; i < 300; i++) {
      await page.keyboard.press('Tab');
      if (await target.evaluate((el) => el === document.activeElement)) return;
    }
    throw new Error('Tab never reached the primary action');
  };

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    s = await startTestServer({ socket: true, env: { OWNER_GATE: 'approval' } });
    cc = await chairCase(s);
    await addOwner(s.db.db, 'dana');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await browser.newContext({
      viewport: { width: 1100, height: 900 },
      locale: 'he-IL',
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    const { token } = await mintLoginLink(s.db.db, 'dana', new Date());
    // The link enrols her: she sets her password once, and the console opens.
    await go(loginPath(token));
    await page.getByLabel('סיסמה חדשה').fill('לשכת יושב הראש בחיפה');
    await page.getByLabel('הסיסמה שוב').fill('לשכת יושב הראש בחיפה');
    await page.getByRole('button', { name: 'כניסה' }).click();
    await page.waitForURL(`${s.url}/console`);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('the home page and the case list: stage and what waits for the chair', async () => {
    await expect(page.locator('header .brand').textContent()).resolves.toBe('לשכת יו״ר ועדת הערר');
    await expect(page.title()).resolves.toContain('לשכת יו״ר ועדת הערר');
    await shot('01-home');
    await go('/console/cases');
    const row = page.locator('tr', { has: page.locator(`a[href="/console/cases/${cc.caseId}"]`) });
    await expect(row.textContent()).resolves.toContain('2 הכוונות מוצעות');
    await accessible(page.locator(`a[href="/console/cases/${cc.caseId}"]`));
    await shot('02-cases');
    // The checker sees what it must: an image without a text alternative is a critical violation.
    await page.evaluate(() => document.querySelector('main')?.append(document.createElement('img')));
    await expect(serious()).resolves.toEqual([expect.stringMatching(/^image-alt \(critical\)/)]);
  });

  it('reads the draft block by block, numbered, with the latest check beside it', async () => {
    await go(`/console/cases/${cc.caseId}`);
    const draft = page.locator('#draft');
    await expect(draft.locator('.para').first().textContent()).resolves.toMatch(/ועדת הערר/);
    await expect(
      draft.locator('.para', { hasText: 'העוררים הם בעלי הזכויות' }).textContent(),
    ).resolves.toMatch(/^1\. /);
    await expect(draft.locator('h3').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['רקע', 'טענות העוררים', 'דיון והכרעה', 'סוף דבר']),
    );
    await expect(page.locator('#validation').textContent()).resolves.toMatch(/\d+ שגיאות · \d+ אזהרות/);
    // A finding the check tied to a block is shown in that block.
    const flagged = await page.locator('.draft .block.flagged aside.findings').count();
    const loose = await page.locator('#validation li.finding').count();
    expect(flagged + loose).toBeGreaterThan(0);
    await expect(page.locator('#holdings').textContent()).resolves.toContain(RULING_HOLDINGS[0].opens);
    await accessible(page.getByRole('button', { name: 'אישור ההכוונה' }).first());
    await shot('03-case');
  });

  it('downloads the Word file: a zip with word/document.xml', async () => {
    await go(`/console/cases/${cc.caseId}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'הורדת קובץ Word' }).first().click(),
    ]);
    const path = join(OUT, 'chair-download.docx');
    await download.saveAs(path);
    const bytes = new Uint8Array(await readFile(path));
    expect(bytes).toEqual(cc.docx);
    expect(zipNames(bytes)).toContain('word/document.xml');
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
  });

  it('approves a direction in place, seeing its title and rationale', async () => {
    await go(`/console/cases/${cc.caseId}`);
    const card = page.locator(`#direction-${cc.directionIds[0]}`);
    await expect(card.textContent()).resolves.toMatch(
      new RegExp(`${DIRECTION.title}[\\s\\S]*מוצעת[\\s\\S]*${DIRECTION.rationale.slice(0, 20)}`),
    );
    // The card has two forms, approve and decline, each with its own reason.
    await card.locator(`#direction-reason-${cc.directionIds[0]}`).fill('ההכוונה מקובלת עליי');
    await card.getByRole('button', { name: 'אישור ההכוונה' }).click();
    await page.waitForURL(`${s.url}/console/cases/${cc.caseId}?done=direction`);
    await expect(page.locator('[role=status]').textContent()).resolves.toBe('ההכוונה אושרה.');
    await expect(page.locator(`#direction-${cc.directionIds[0]}`).textContent()).resolves.toMatch(
      /מאושרת[\s\S]*אושרה ע״י dana[\s\S]*ההכוונה מקובלת עליי/,
    );
    const listed = expectOk<{ items: { id: string; status: string }[] }>(
      await s.call('ceo', 'direction_list', { case_id: cc.caseId }),
    ).items;
    expect(listed.find((d) => d.id === cc.directionIds[0])?.status).toBe('approved');
    await shot('04-direction-approved');
  });

  it('approves a holding in place, seeing its text and source', async () => {
    const id = cc.holdingIds[0] as string;
    const card = page.locator(`#holding-${id}`);
    await expect(card.textContent()).resolves.toMatch(
      new RegExp(
        `עע"מ 9001/19[\\s\\S]*ממתינה לבחינה[\\s\\S]*פסיקה · עמוד 1[\\s\\S]*${RULING_HOLDINGS[0].opens}`,
      ),
    );
    await card.locator('input[name=reason]').fill('הלכה מבוססת');
    await card.getByRole('button', { name: 'אישור ההלכה' }).click();
    await page.waitForURL(`${s.url}/console/cases/${cc.caseId}?done=holding_approved`);
    await expect(page.locator(`#holding-${id} .badge`).first().textContent()).resolves.toBe('אושרה');
    const h = expectOk<{ items: { halacha_id: string; status: string }[] }>(
      await s.call('researcher', 'halacha_list', { document_id: cc.rulingId, status: 'approved' }),
    ).items;
    expect(h.map((x) => x.halacha_id)).toContain(id);
    await shot('05-holding-approved');
  });

  it('reads an agent’s request as what it means, and approves it', async () => {
    const id = approvalIdOf(
      await s.call('ceo', 'halacha_review', {
        halacha_id: cc.holdingIds[1],
        decision: 'reject',
        reason: 'נראה שזו טענת צד ולא הלכה',
      }),
    );
    await go('/console/approvals');
    const card = page.locator(`#approval-${id}`);
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('בחינת הלכה');
    expect(text).toContain(RULING_HOLDINGS[1].opens);
    expect(text).toContain('ההלכה תידחה');
    // The raw call is there for an expert, closed.
    await expect(card.locator('details.expert').getAttribute('open')).resolves.toBeNull();
    await expect(card.locator('details.expert summary').isVisible()).resolves.toBe(true);
    await expect(card.locator('details.expert pre').isVisible()).resolves.toBe(false);
    await accessible(card.getByRole('button', { name: 'אישור' }));
    await shot('06-approvals');
    await card.locator('textarea[name=reason]').fill('אכן טענת צד');
    await card.getByRole('button', { name: 'אישור' }).click();
    await page.waitForURL(`${s.url}/console/approvals/${id}?done=approved`);
    await accessible(page.locator('nav.main a').first());
    await shot('07-approval-approved');
  });

  it('uploads the signed version: the case is decided, each block’s edits shown', async () => {
    const edited = await chairEdit(cc.docx, {
      tracked: { find: 'בחלקה 12', replace: 'בחלקה 14' },
      added: { after: 'בגוש 6543', text: 'הבקשה הוגשה בשנת 2024.' },
      direct: { find: 'אין צו להוצאות.', replace: 'אין צו להוצאות, בנסיבות העניין.' },
      comment: { on: 'אין בה הוראה המתירה', text: 'להפנות לסעיף התכנית.' },
    });
    await go(`/console/cases/${cc.caseId}`);
    await accessible(page.getByRole('button', { name: 'קליטת הנוסח החתום' }));
    await page.locator('#final-file').setInputFiles({
      name: 'signed.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from(edited),
    });
    await page.locator('#final-reason').fill('חתמתי על ההחלטה');
    await page.getByRole('button', { name: 'קליטת הנוסח החתום' }).click();
    await page.waitForURL(`${s.url}/console/cases/${cc.caseId}?done=final`);
    const final = (await page.locator('#final').textContent()) ?? '';
    expect(final).toContain('בחלקה 14');
    expect(final).toMatch(/מה שונה בכל חלק[\s\S]*רקע\d+%/);
    expect(final).toContain('להפנות לסעיף התכנית.');
    const c = expectOk<{ case: { status: string } }>(await s.call('ceo', 'case_get', { case_id: cc.caseId }));
    expect(c.case.status).toBe('decided');
    await shot('08-final');
  });

  it('writes a remark on a block; feedback_list returns it', async () => {
    await go(`/console/cases/${cc.caseId}`);
    await page.locator('#feedback-block').selectOption('discussion');
    await page.locator('#feedback-kind').selectOption('substance');
    await page.locator('#feedback-text').fill('בדיון יש להתייחס גם לתכליתה של ההקלה.');
    await page.getByRole('button', { name: 'רישום ההערה' }).click();
    await page.waitForURL(`${s.url}/console/cases/${cc.caseId}?done=feedback`);
    await expect(page.locator('#feedback').textContent()).resolves.toMatch(
      /מהות[\s\S]*דיון והכרעה: בדיון יש להתייחס גם לתכליתה של ההקלה\./,
    );
    const items = expectOk<{ items: { text: string; block_kind: string | null; kind: string }[] }>(
      await s.call('writer', 'feedback_list', { case_id: cc.caseId }),
    ).items;
    expect(items).toContainEqual(
      expect.objectContaining({
        text: 'בדיון יש להתייחס גם לתכליתה של ההקלה.',
        block_kind: 'discussion',
        kind: 'substance',
      }),
    );
    await accessible(page.getByRole('button', { name: 'רישום ההערה' }));
    await shot('09-case-after');
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await go(`/console/cases/${cc.caseId}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('10-phone-case');
    await page.setViewportSize({ width: 1100, height: 900 });
    expect(cspViolations).toEqual([]);
  });
});
