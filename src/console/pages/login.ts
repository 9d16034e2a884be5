// Signing in: the password form (what a visitor without a session sees, and where logout leads), the enrolment
// form a single-use link opens (the owner sets a password there, the first time or to recover), and their
// refusals. All in Hebrew; the operator's command is never shown to the owner.
import { html } from 'hono/html';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.ts';
import type { LoginRefusal } from '../../owner/accounts.ts';
import type { Html } from '../layout.ts';

export const loginRefusals: Record<LoginRefusal, string> = {
  invalid: 'קישור הכניסה אינו תקף.',
  expired: 'תוקף קישור הכניסה פג. בקשו קישור חדש.',
  used: 'בקישור הכניסה הזה כבר השתמשו; כל קישור טוב לפעם אחת. אם כבר הגדרתם סיסמה, היכנסו בה כאן למטה.',
  disabled: 'החשבון הזה מושבת.',
};

const howToRecover = html`<p class="meta">שכחתם את הסיסמה, או שעדיין לא הגדרתם סיסמה? בקשו ממי שמנהל את השרת קישור חד־פעמי להגדרת סיסמה; הקישור טוב לשימוש אחד ולרבע שעה.</p>`;

const csrfInput = (csrf: string): Html => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** The sign-in form: name and password. `name` refills the name after a refusal. */
export const signInForm = (o: { csrf: string; name?: string }): Html => html`<div class="card">
<p>נכנסים בשם המשתמש ובסיסמה שהגדרתם.</p>
<form class="signin" method="post" action="/console/login">${csrfInput(o.csrf)}
<p><label for="signin-name">שם משתמש</label>
<input type="text" id="signin-name" name="name" required maxlength="63" autocomplete="username" autocapitalize="none" spellcheck="false" value="${o.name ?? ''}"></p>
<p><label for="signin-password">סיסמה</label>
<input type="password" id="signin-password" name="password" required maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="current-password"></p>
<div class="buttons"><button type="submit">כניסה</button></div>
</form>
</div>${howToRecover}`;

const passwordRules = `לפחות ${PASSWORD_MIN_LENGTH} תווים. אפשר משפט קצר או כמה מילים עם רווחים; קל לזכור וקשה לנחש.`;

/**
 * The form a link opens: the owner chooses a password (twice). Posting it spends the link and signs in, so a
 * link preview that fetches the URL spends nothing. `renewing`: the owner has a password already (recovery).
 */
export const enrolForm = (o: { token: string; csrf: string; name: string; renewing: boolean }): Html =>
  html`<div class="card">
<p>${o.renewing ? 'כאן מגדירים סיסמה חדשה במקום הקודמת.' : 'כאן מגדירים סיסמה למסוף, פעם אחת.'} מעתה נכנסים בשם המשתמש ובסיסמה בלבד, בלי קישור.</p>
<form class="enrol" method="post" action="/console/login">${csrfInput(o.csrf)}<input type="hidden" name="token" value="${o.token}">
<p><label for="enrol-name">שם משתמש</label>
<input type="text" id="enrol-name" name="name" value="${o.name}" readonly autocomplete="username"></p>
<p><label for="enrol-password">סיסמה חדשה</label>
<input type="password" id="enrol-password" name="password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="new-password" aria-describedby="enrol-rules"></p>
<p class="meta" id="enrol-rules">${passwordRules}</p>
<p><label for="enrol-confirm">הסיסמה שוב</label>
<input type="password" id="enrol-confirm" name="confirm" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="new-password"></p>
<div class="buttons"><button type="submit">כניסה</button></div>
</form>
</div>`;

export const refusal = (text: string): Html => html`<p class="notice error" role="alert">${text}</p>`;
export const notice = (text: string): Html => html`<p class="notice" role="status">${text}</p>`;

export const loginRefused = (why: LoginRefusal, csrf: string): Html =>
  html`${refusal(loginRefusals[why])}${signInForm({ csrf })}`;

export const errorBody = (text: string, hint?: string): Html =>
  html`<p class="notice error" role="alert">${text}</p>${hint === undefined ? '' : html`<p class="meta">${hint}</p>`}<p><a href="/console">חזרה לעמוד הראשי</a></p>`;
