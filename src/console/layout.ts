// The console's page shell: Hebrew, right to left, one stylesheet, no scripts. Every value goes through
// hono/html's `html` template, which escapes what it interpolates (nested `html` fragments stay as they are).
import type { MiddlewareHandler } from 'hono';
import { html } from 'hono/html';

export type Html = ReturnType<typeof html>;

/** What the console is to the chair who works in it. */
export const CONSOLE_NAME = 'לשכת יו״ר ועדת הערר';

export type Section = 'home' | 'approvals' | 'missions' | 'cases';

export interface Shell {
  /** The signed-in owner and the session's CSRF token; null on the login and signed-out pages. */
  owner: { name: string; csrf: string } | null;
  active?: Section;
  /** A one-line result of the last action (after a redirect), or an error. */
  notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}

const nav: [Section, string, string][] = [
  ['home', '/console', 'ראשי'],
  ['approvals', '/console/approvals', 'בקשות אישור'],
  ['missions', '/console/missions', 'משימות'],
  ['cases', '/console/cases', 'תיקים'],
];

/** A hidden CSRF field: every form carries it (docs/contract.md "Grants and gates", the console). */
export const csrfField = (csrf: string): Html => html`<input type="hidden" name="csrf" value="${csrf}">`;

export function page(title: string, shell: Shell, body: Html | Html[]): Html {
  const who = shell.owner;
  return html`<!doctype html>
<html lang="he" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · ${CONSOLE_NAME}</title>
<link rel="stylesheet" href="/console/style.css">
</head>
<body>
<header class="top">
<a class="brand" href="/console">${CONSOLE_NAME}</a>
${
  who === null
    ? ''
    : html`<nav class="main" aria-label="ניווט ראשי">${nav.map(
        ([id, href, label]) =>
          html`<a href="${href}"${shell.active === id ? html` aria-current="page"` : ''}>${label}</a>`,
      )}</nav>
<div class="who"><span>${who.name}</span><form method="post" action="/console/logout">${csrfField(who.csrf)}<button class="link" type="submit">יציאה</button></form></div>`
}
</header>
<main>
<h1>${title}</h1>
${shell.notice === undefined ? '' : html`<p class="notice ${shell.notice.kind}" role="status">${shell.notice.text}</p>`}
${body}
</main>
</body>
</html>`;
}

/**
 * Headers of every console response: a CSP that allows no script at all and styles only from this origin,
 * no framing, no referrer (login links carry their token in the URL), and nothing stored by caches.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const h = c.res.headers;
  h.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  h.set('X-Frame-Options', 'DENY');
  h.set('Referrer-Policy', 'no-referrer');
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Cross-Origin-Resource-Policy', 'same-origin');
  h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
};

/** A date and time as the committee reads it (Israel time, day first). */
export function when(d: Date | null | undefined): string {
  if (d === null || d === undefined) return '—';
  return new Intl.DateTimeFormat('he-IL', {
    timeZone: 'Asia/Jerusalem',
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(d);
}
