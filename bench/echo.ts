// The floors: a raw Hono route that parses the JSON body and returns the same bytes as tools/list (which
// grows with every tool), and one that returns the same bytes as a tools/call, each the baseline of its kind.
import { Hono } from 'hono';
import { listen } from './app.ts';
import { type EraForms, type Form, type Sent, send } from './forms.ts';

export async function startEcho(forms: EraForms, listReply: Sent, callReply: Sent) {
  const app = new Hono();
  app.post('/echo', async (c) => {
    await c.req.json();
    return c.body(listReply.raw, 200, { 'content-type': listReply.type });
  });
  app.post('/echo-call', async (c) => {
    await c.req.json();
    return c.body(callReply.raw, 200, { 'content-type': callReply.type });
  });
  const server = await listen(app.fetch);
  const listForm: Form = {
    label: `echo (raw Hono, same ${Buffer.byteLength(listReply.raw)} B as tools/list)`,
    headers: { 'content-type': 'application/json' },
    body: forms.list2025.body,
  };
  const callForm: Form = {
    label: `echo (raw Hono, same ${Buffer.byteLength(callReply.raw)} B as tools/call)`,
    headers: { 'content-type': 'application/json' },
    body: forms.call2025.body,
  };
  for (const [path, form, reply] of [
    ['/echo', listForm, listReply],
    ['/echo-call', callForm, callReply],
  ] as const) {
    const check = await send(`${server.url}${path}`, form);
    if (check.status !== 200 || check.raw !== reply.raw)
      throw new Error(`the ${path} route is not answering`);
  }
  return {
    app,
    url: server.url,
    close: server.close,
    listUrl: `${server.url}/echo`,
    callUrl: `${server.url}/echo-call`,
    listForm,
    callForm,
  };
}

export type Echo = Awaited<ReturnType<typeof startEcho>>;
