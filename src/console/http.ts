// What every console route shares: the console's Hono env, rendering a page, the two POST guards (this
// origin's small forms only; the session's CSRF token), the session cookie's name, and a page's notice.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { constantTimeEqual } from '../contract/hash.ts';
import type { OwnerRow } from '../db/schema/owners.ts';
import type { AppEnv } from '../http/context.ts';
import { doneNotices } from './labels.ts';
import { type Html, page, type Section, type Shell } from './layout.ts';
import { errorBody } from './pages/login.ts';

export type ConsoleEnv = {
  Variables: AppEnv['Variables'] & {
    owner: OwnerRow;
    session: string;
    csrf: string;
    form: Record<string, string>;
    files: Record<string, File>;
  };
};
export type ConsoleContext = Context<ConsoleEnv>;

/** Console forms are a few fields of text. */
const MAX_FORM_BYTES = 64 * 1024;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isLoopback = (c: Context) =>
  ['localhost', '127.0.0.1', '[::1]'].includes(new URL(c.req.url).hostname);
/** `__Host-` binds the cookie to this host over HTTPS; on loopback (plain HTTP) a browser refuses Secure. */
export const cookieName = (c: Context) => (isLoopback(c) ? 'chambers_owner' : '__Host-chambers_owner');

export const render = (
  c: ConsoleContext,
  title: string,
  body: Html | Html[],
  shell: Partial<Shell> = {},
  status: ContentfulStatusCode = 200,
) =>
  c.html(
    page(
      title,
      {
        owner: c.get('owner') === undefined ? null : { name: c.get('owner').name, csrf: c.get('csrf') },
        ...shell,
      },
      body,
    ),
    status,
  );

// POSTs come from this origin's forms only, and are small. Browsers say where a request comes from in
// Sec-Fetch-Site; the Origin header is the fallback (under Referrer-Policy: no-referrer a same-origin form
// POST carries `Origin: null`, so Sec-Fetch-Site decides when it is there).
const posted =
  (maxBytes: number): MiddlewareHandler<ConsoleEnv> =>
  async (c, next) => {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const sameOrigin =
      site !== undefined
        ? site === 'same-origin'
        : origin === undefined || origin === new URL(c.req.url).origin;
    if (!sameOrigin) {
      return render(c, 'הפעולה נחסמה', errorBody('הטופס נשלח מאתר אחר ולכן נחסם.'), {}, 403);
    }
    const tooLarge = () => render(c, 'הפעולה נחסמה', errorBody('הטופס גדול מדי.'), {}, 413);
    const length = c.req.header('content-length');
    if (length !== undefined && Number(length) > maxBytes) return tooLarge();
    // A body without a declared length is counted as it is read.
    if (length === undefined) {
      const counted = await bodyLimit({ maxSize: maxBytes, onError: tooLarge })(c, async () => {});
      if (counted instanceof Response) return counted;
    }
    const body = await c.req.parseBody();
    const form: Record<string, string> = {};
    const files: Record<string, File> = {};
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === 'string') form[k] = v;
      else if (v instanceof File && v.size > 0) files[k] = v;
    }
    c.set('form', form);
    c.set('files', files);
    await next();
  };

export const formPost = posted(MAX_FORM_BYTES);

/**
 * A form that carries a file (the signed final version): the same origin check, a cap a little over the
 * largest Word file the ingestion takes (10 MiB), the file kept as bytes for the tool.
 */
export const MAX_UPLOAD_FORM_BYTES = 11 * 1024 * 1024;
export const uploadPost = posted(MAX_UPLOAD_FORM_BYTES);

/** A posted file, or undefined when none was chosen. */
export const file = (c: ConsoleContext, name: string): File | undefined => c.get('files')[name];

// Every form carries the session's CSRF token; a POST without it (or with another session's) does nothing.
export const checked: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const given = c.get('form').csrf ?? '';
  if (!constantTimeEqual(given, c.get('csrf'))) {
    return render(
      c,
      'הפעולה נחסמה',
      errorBody('הטופס אינו תקף (חסר אסימון אבטחה). טענו את העמוד מחדש ונסו שוב.'),
      {},
      403,
    );
  }
  await next();
};

/** A posted form field, '' when absent. */
export const form = (c: ConsoleContext, name: string) => c.get('form')[name] ?? '';

const notice = (c: ConsoleContext) => {
  const done = c.req.query('done');
  const text = done === undefined ? undefined : doneNotices[done];
  return text === undefined ? undefined : { kind: 'ok' as const, text };
};
/** The shell of a page in a section: its tab marked, and the notice of the action that led here. */
export const section = (active: Section) => (c: ConsoleContext) => ({ active, notice: notice(c) });
