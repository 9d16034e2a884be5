/**
 * The Workers build under workerd (`wrangler dev --local`, offline): the real bundle with Neon (a
 * WebSocket Pool per request, through the harness proxy to the local PostgreSQL) and Upstash (through
 * the REST bridge to the local Redis), driven by the official MCP client over HTTP.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Bridges, startBridges } from '../../scripts/dev/bridges.ts';
import { startWorkerDev, type WorkerDev } from '../../scripts/dev/worker.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { mintToken, mintTokenWithId, revokeTokens } from '../../src/auth/tokens.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { enqueueDocumentExtraction } from '../../src/documents/extract_job.ts';
import { createDocument } from '../../src/documents/pipeline.ts';
import { emptyDrainReport } from '../../src/jobs/drain.ts';
import { addOwner, loginPath, mintLoginLink } from '../../src/owner/accounts.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';
import { type Fetcher, openSignInForm, sessionCookie } from '../harness/owner.ts';
import { describeWithService, redisTestPrefix, serviceUrls } from '../harness/services.ts';

const WORKER_SECRET = 'workers-test-secret-0123456789';

type CaseData = { case: { id: string; case_number: string; title: string }; created: boolean };

function expectOkData<T>(envelope: Envelope): T {
  if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope.error)}`);
  return envelope.data as T;
}

describeWithService('postgres', 'Workers build under wrangler dev', () => {
  describeWithService('redis', 'workerd + Neon proxy + Upstash bridge', () => {
    let db: TestDb | undefined;
    let bridges: Bridges | undefined;
    let dev: WorkerDev | undefined;
    let persistDir: string | undefined;
    let dbName = '';
    let token = '';
    let analystToken = '';
    const output: string[] = [];
    const clients: Client[] = [];

    const prefix = redisTestPrefix('workers');
    const keyPrefix = () => prefix;
    const url = () => {
      if (!dev) throw new Error('wrangler dev did not start');
      return dev.url;
    };

    const connect = async (era: 'legacy' | 'modern', bearer = token) => {
      const client = new Client(
        { name: 'chambers-workers-test', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url()}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
        }),
      );
      clients.push(client);
      return client;
    };

    const call = async (client: Client, name: string, args: Record<string, unknown>, progress = false) => {
      const result = await client.callTool(
        { name, arguments: args },
        progress ? { onprogress: () => {}, timeout: 20_000 } : { timeout: 20_000 },
      );
      return result.structuredContent as unknown as Envelope;
    };

    /** Connections the Worker holds on the test database (the test itself keeps none open). */
    const workerConnections = async () => {
      const admin = new pg.Client({ connectionString: db?.url });
      admin.on('error', () => {});
      await admin.connect();
      try {
        const { rows } = await admin.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [dbName],
        );
        return rows[0]?.n ?? -1;
      } finally {
        await admin.end();
      }
    };

    beforeAll(async () => {
      db = await createTestDb('postgres');
      if (db.url === undefined) throw new Error('createTestDb(postgres) gave no url');
      dbName = new URL(db.url).pathname.slice(1);
      // The token goes in through a short-lived pool, so only the Worker's connections remain on this database.
      const minter = openPostgres(db.url, { max: 1 });
      try {
        token = await mintToken(minter.db, 'ceo', 'workers test');
        analystToken = await mintToken(minter.db, 'analyst', 'workers test');
      } finally {
        await minter.close();
      }
      bridges = await startBridges({ keyPrefix: keyPrefix() });
      persistDir = await mkdtemp(join(tmpdir(), 'chambers-wrangler-'));
      dev = await startWorkerDev({
        databaseUrl: db.url,
        neonProxy: bridges.neon.host,
        upstash: { url: bridges.upstash.url, token: bridges.upstash.token },
        port: 0,
        persistTo: persistDir,
        vars: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '0', WORKER_SECRET },
        testScheduled: true,
        onOutput: (line) => output.push(line),
      });
    }, 120_000);

    afterAll(async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      await dev?.stop();
      await bridges?.close();
      if (dbName !== '') {
        // The idempotency records live 24 h: remove this run's keys rather than leave them in Redis.
        const redis = new Redis(serviceUrls.redis);
        try {
          const keys = await redis.keys(`${keyPrefix()}*`);
          if (keys.length > 0) await redis.del(...keys);
        } finally {
          redis.disconnect();
        }
      }
      await db?.close();
      if (persistDir) await rm(persistDir, { recursive: true, force: true });
    }, 60_000);

    it('answers /healthz with both stores up (Neon through the proxy, Upstash through the bridge)', async () => {
      const res = await fetch(`${url()}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, db: 'up', kv: { status: 'up', kind: 'upstash' } });
    });

    it('refuses /mcp without a token, or with an unknown one, with 401 and a Bearer challenge', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const bare = await fetch(`${url()}/mcp`, { method: 'POST', headers, body });
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const wrong = await fetch(`${url()}/mcp`, {
        method: 'POST',
        headers: { ...headers, authorization: 'Bearer chm_not-a-real-token' },
        body,
      });
      expect(wrong.status).toBe(401);
    });

    it('lists the ceo tools and creates, reads and replays a case (2025-era client, SSE responses)', async () => {
      const client = await connect('legacy');
      const listed = await client.listTools();
      const ceoGrants = (await loadAgentsFromDir('agents')).get('ceo')?.tools ?? [];
      expect(listed.tools.map((t) => t.name).sort()).toEqual([...ceoGrants].sort());
      expect(listed.tools.map((t) => t.name)).toEqual(
        expect.arrayContaining([
          'case_create',
          'case_delete',
          'case_final_text_get',
          'case_get',
          'case_list',
          'case_update',
        ]),
      );
      const args = { case_number: 'ערר 101/26', title: 'היתר בנייה ברחוב הרצל' };
      const created = expectOkData<CaseData>(await call(client, 'case_create', args));
      expect(created.created).toBe(true);
      const got = expectOkData<CaseData>(await call(client, 'case_get', { case_id: created.case.id }));
      expect(got.case).toMatchObject({ id: created.case.id, case_number: 'ערר 101/26', title: args.title });
      const again = await call(client, 'case_create', args);
      expect(again.ok && again.replayed).toBe(true);
      expect(expectOkData<CaseData>(again).case.id).toBe(created.case.id);
    });

    it('serves the 2026-07-28 era (JSON responses) on the same Worker', async () => {
      const client = await connect('modern');
      const created = expectOkData<CaseData>(
        await call(client, 'case_create', { case_number: 'ערר 102/26', title: 'שימוש חורג' }),
      );
      expect(created.created).toBe(true);
      const listed = expectOkData<{ items: { id: string }[] }>(await call(client, 'case_list', {}));
      expect(listed.items.map((c) => c.id)).toContain(created.case.id);
    });

    it('streams SSE for a call with a progress token, and a raw 2025-era POST gets an SSE body', async () => {
      const client = await connect('legacy');
      const listed = await call(client, 'case_list', {}, true);
      expect(expectOkData<{ items: unknown[] }>(listed).items.length).toBeGreaterThanOrEqual(1);

      const res = await fetch(`${url()}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'case_list', arguments: {}, _meta: { progressToken: 'p-7' } },
        }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await res.text();
      const data = text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as { id?: number; result?: { structuredContent?: Envelope } });
      const reply = data.find((m) => m.id === 7);
      expect(reply?.result?.structuredContent?.ok).toBe(true);
    });

    it('handles concurrent calls, each with its own pool, and releases every pool when its response ends', async () => {
      const client = await connect('legacy');
      const created = expectOkData<CaseData>(
        await call(client, 'case_create', { case_number: 'ערר 103/26', title: 'הקלה' }),
      );
      const reads = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call(client, 'case_get', { case_id: created.case.id }, i % 2 === 0),
        ),
      );
      for (const r of reads) expect(expectOkData<CaseData>(r).case.id).toBe(created.case.id);
      // Every per-request Neon pool is ended once its (streamed) response finished: no connection lingers.
      // Waits at most 3 s, well under the pool's 10 s idle timeout that would otherwise hide a leak.
      let open = await workerConnections();
      for (let i = 0; i < 12 && open > 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        open = await workerConnections();
      }
      expect(open).toBe(0);
      expect(output.filter((l) => /after calling end|uncaught|internal error/i.test(l))).toEqual([]);
    });

    it('extracts an uploaded PDF after the kick (waitUntil, no extraction_run): text by page and search', async () => {
      const ceo = await connect('legacy');
      const kase = expectOkData<CaseData>(
        await call(ceo, 'case_create', { case_number: 'ערר 202/26', title: 'שומה — העלאה ב-Worker' }),
      );
      const analyst = await connect('legacy', analystToken);
      const pdf = await readFile(new URL('../fixtures/hebrew/appraisal.pdf', import.meta.url));
      const uploaded = expectOkData<{ document: { id: string; status: string }; created: boolean }>(
        await call(analyst, 'document_upload', {
          corpus: 'case',
          case_id: kase.case.id,
          content_base64: pdf.toString('base64'),
          media_type: 'application/pdf',
          title: 'חוות דעת שמאי',
        }),
      );
      expect(uploaded.created).toBe(true);
      const documentId = uploaded.document.id;
      // The upload's kick drains under waitUntil on its own Neon handle; poll what an agent would see.
      let status = uploaded.document.status;
      for (let i = 0; i < 80 && status !== 'ready' && status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const listed = expectOkData<{ items: { id: string; status: string }[] }>(
          await call(analyst, 'document_list', { case_id: kase.case.id }),
        );
        status = listed.items.find((d) => d.id === documentId)?.status ?? 'missing';
      }
      expect(status).toBe('ready');
      const read = expectOkData<{ pages: { page: number; text: string }[] }>(
        await call(analyst, 'document_text_get', { document_id: documentId, from_page: 2, to_page: 2 }),
      );
      expect(read.pages.map((p) => p.page)).toEqual([2]);
      expect(read.pages[0]?.text).toContain('עסקאות השוואה');
      const hits = expectOkData<{ items: { document_id: string; page: number }[] }>(
        await call(analyst, 'search_case', { case_id: kase.case.id, query: 'עסקאות השוואה' }),
      );
      expect(hits.items[0]).toMatchObject({ document_id: documentId, page: 2 });
      expect(output.filter((l) => /drain failed|uncaught|internal error/i.test(l))).toEqual([]);
    });

    it('drains through /worker/drain with the worker secret only, and releases its pool', async () => {
      const drain = (authorization?: string) =>
        fetch(`${url()}/worker/drain`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          body: JSON.stringify({ max_jobs: 5 }),
        });
      expect((await drain()).status).toBe(401);
      expect((await drain(`Bearer ${token}`)).status).toBe(401);
      const res = await drain(`Bearer ${WORKER_SECRET}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ...emptyDrainReport(), ms: expect.any(Number) });
      let open = await workerConnections();
      for (let i = 0; i < 12 && open > 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        open = await workerConnections();
      }
      expect(open).toBe(0);
    });

    it('extraction_run drains through the binding; the extraction Worker has no route on this host', async () => {
      const ceo = await connect('legacy');
      const run = await call(ceo, 'extraction_run', { max_jobs: 5 });
      expect(run.ok).toBe(true);
      const res = await fetch(`${url()}/drain`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
    });

    it('refuses a revoked token and an expired one on workerd too', async () => {
      const minter = openPostgres(db?.url ?? '', { max: 1 });
      let revoked = '';
      let expired = '';
      try {
        const r = await mintTokenWithId(minter.db, 'qa');
        await revokeTokens(minter.db, r.id);
        revoked = r.token;
        expired = await mintToken(minter.db, 'qa', { expiresAt: new Date(Date.now() - 1_000) });
      } finally {
        await minter.close();
      }
      for (const t of [revoked, expired]) {
        const res = await fetch(`${url()}/v1/tools`, { headers: { authorization: `Bearer ${t}` } });
        expect(res.status).toBe(401);
      }
    });

    it('an owner enrols by link and signs in by password on workerd too (PBKDF2 through WebCrypto there)', async () => {
      const minter = openPostgres(db?.url ?? '', { max: 1 });
      let token = '';
      try {
        await addOwner(minter.db, 'worker-chair');
        token = (await mintLoginLink(minter.db, 'worker-chair', new Date())).token;
      } finally {
        await minter.close();
      }
      const password = 'סיסמה ארוכה על workerd';
      const at: Fetcher = (path, init) => fetch(`${url()}${path}`, init);
      const submit = async (path: string, fields: Record<string, string>) =>
        (await openSignInForm(at, path)).post(fields);
      const enrolled = await submit(loginPath(token), { token, password, confirm: password });
      expect([enrolled.status, enrolled.headers.get('location')]).toEqual([303, '/console']);
      const wrong = await submit('/console/login', { name: 'worker-chair', password: `${password}x` });
      expect(wrong.status).toBe(401);
      const signedIn = await submit('/console/login', { name: 'worker-chair', password });
      expect(signedIn.status).toBe(303);
      expect((await at('/console', { headers: { cookie: sessionCookie(signedIn) ?? '' } })).status).toBe(200);
    });

    it('the Cron Trigger (scheduled) drains work that no kick reached', async () => {
      // A document and its job committed outside any request (as after a lost kick): only the cron drains it.
      const writer = openPostgres(db?.url ?? '', { max: 1 });
      let documentId = '';
      try {
        await writer.db.transaction(async (tx) => {
          const made = await createDocument(tx, {
            corpus: 'style',
            caseId: null,
            bytes: new TextEncoder().encode(`החלטה לדוגמה לסגנון ${crypto.randomUUID()}`),
            createdBy: 'ceo',
            title: 'דוגמת סגנון',
          });
          documentId = made.document.id;
          await enqueueDocumentExtraction(tx, documentId);
        });
      } finally {
        await writer.close();
      }
      const ceo = await connect('legacy');
      const statusOf = async () =>
        expectOkData<{ document: { status: string } }>(
          await call(ceo, 'extraction_status', { document_id: documentId }),
        ).document.status;
      expect(await statusOf()).toBe('pending');
      const res = await fetch(`${url()}/__scheduled?cron=${encodeURIComponent('* * * * *')}`);
      expect(res.status).toBe(200);
      let status = await statusOf();
      for (let i = 0; i < 80 && status !== 'ready' && status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = await statusOf();
      }
      expect(status).toBe('ready');
      expect(output.filter((l) => /drain failed|uncaught|internal error/i.test(l))).toEqual([]);
    });
  });
});
