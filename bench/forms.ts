// The requests, exactly as the official client 2.4.0 sends them in each era, and how one is sent and
// checked.
import { NOOP } from './app.ts';

export interface Form {
  label: string;
  headers: Record<string, string>;
  body: string;
}

/** The four forms measured: a no-op tools/call and tools/list, in each era. */
export interface EraForms {
  call2025: Form;
  list2025: Form;
  call2026: Form;
  list2026: Form;
}

const clientInfo = { name: 'chambers-bench', version: '1.0.0' };

export const modernHeaders = (token: string, method: string, name?: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
  'mcp-protocol-version': '2026-07-28',
});

export const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': clientInfo,
  'io.modelcontextprotocol/clientCapabilities': {},
};

export function eraForms(token: string): EraForms {
  const legacyHeaders = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  return {
    call2025: {
      label: 'tools/call no-op (2025-11-25, binding fast path)',
      headers: legacyHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: NOOP, arguments: {} },
      }),
    },
    list2025: {
      label: 'tools/list (2025-11-25, binding fast path)',
      headers: legacyHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    },
    call2026: {
      label: 'tools/call no-op (2026-07-28, SDK handler)',
      headers: modernHeaders(token, 'tools/call', NOOP),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: NOOP, arguments: {}, _meta: modernMeta },
      }),
    },
    list2026: {
      label: 'tools/list (2026-07-28, SDK handler)',
      headers: modernHeaders(token, 'tools/list'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } }),
    },
  };
}

type RpcReply = {
  id?: unknown;
  result?: { tools?: { name: string }[]; structuredContent?: { ok?: unknown }; isError?: boolean };
  error?: unknown;
};

/** Sends one request; returns the raw body and the JSON-RPC reply (from JSON or from the SSE stream). */
export async function send(url: string, form: Form) {
  const res = await fetch(url, { method: 'POST', headers: form.headers, body: form.body });
  const type = res.headers.get('content-type') ?? '';
  const raw = await res.text();
  let reply: RpcReply | undefined;
  if (type.startsWith('text/event-stream')) {
    for (const line of raw.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const message = JSON.parse(line.slice(5)) as RpcReply;
      if (message.id !== undefined) reply = message;
    }
  } else if (type.startsWith('application/json')) {
    reply = JSON.parse(raw) as RpcReply;
  }
  return { status: res.status, type, raw, reply };
}

export type Sent = Awaited<ReturnType<typeof send>>;

/** Refuses to benchmark a request that does not produce the right result. */
export async function verify(mcpUrl: string, form: Form, kind: 'call' | 'list') {
  const r = await send(mcpUrl, form);
  const good =
    r.status === 200 &&
    r.reply?.error === undefined &&
    (kind === 'call'
      ? r.reply?.result?.structuredContent?.ok === true && r.reply.result.isError === false
      : (r.reply?.result?.tools ?? []).some((t) => t.name === NOOP) &&
        (r.reply?.result?.tools ?? []).some((t) => t.name === 'case_create'));
  if (!good) throw new Error(`${form.label}: unexpected answer ${r.status} ${r.type} ${r.raw.slice(0, 300)}`);
  return r;
}
