// Signing in by link, and the pages a visitor without a session sees.
import { html } from 'hono/html';
import type { LoginRefusal } from '../../owner/accounts.ts';
import type { Html } from '../layout.ts';

export const loginRefusals: Record<LoginRefusal, string> = {
  invalid: 'קישור הכניסה אינו תקף.',
  expired: 'תוקף קישור הכניסה פג. בקשו קישור חדש.',
  used: 'בקישור הכניסה הזה כבר השתמשו; כל קישור טוב לכניסה אחת. בקשו קישור חדש.',
  disabled: 'חשבון הבעלים הזה מושבת.',
};

const howToGetALink = html`<p>קישור כניסה חדש מפיקים בשרת: <code>npm run owner -- link &lt;שם&gt;</code>. הקישור טוב לכניסה אחת ולזמן קצר.</p>`;

/** The link opens this form; signing in is the POST, so a link preview that fetches the URL signs no one in. */
export const loginForm = (token: string): Html => html`<div class="card">
<p>כניסה למסוף הבעלים: כאן מאשרים או דוחים פעולות שהסוכנים מבקשים, ועוקבים אחר המשימות והתיקים.</p>
<form method="post" action="/console/login"><input type="hidden" name="token" value="${token}">
<div class="buttons"><button type="submit">כניסה</button></div></form>
</div>`;

export const loginRefused = (why: LoginRefusal): Html =>
  html`<p class="notice error" role="alert">${loginRefusals[why]}</p>${howToGetALink}`;

export const signedOut = (text: string): Html => html`<p class="notice">${text}</p>${howToGetALink}`;

export const errorBody = (text: string, hint?: string): Html =>
  html`<p class="notice error" role="alert">${text}</p>${hint === undefined ? '' : html`<p class="meta">${hint}</p>`}<p><a href="/console">חזרה לעמוד הראשי</a></p>`;
