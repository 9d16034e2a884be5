/**
 * `npm start` killed with SIGKILL mid-work, then started again on the same DATA_DIR (embedded PGlite): during
 * uploads, during a drain of the job queue, and during lease-bound writes. Nothing acknowledged is lost, a
 * repeat of every call makes nothing twice, every job ends succeeded once in effect (one job per document and
 * kind, each page and chunk once), no lease is usable past its time, and the data-directory lock of the dead
 * process does not stop the restart. A second `npm start` on a directory in use refuses, naming it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers, tools } from '../../entry/registries.ts';
import { freePort } from '../../scripts/dev/worker.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { pgliteDir } from '../../src/db/backup.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import { createChambers } from '../../src/server.ts';
import { errorCode, expectOk } from '../harness/server.ts';
import { firstStartTokens, type SpawnedServer, spawnServer } from '../harness/spawned.ts';

const DEVICE = 'dev-1';
const gate = { owner_ack: true, reason: 'The owner approved it in the meeting' };
// Several pages each (form feed = new page), so extraction and its follow-up jobs take a moment.
const docText = (i: number) =>
  Array.from({ length: 6 }, (_, p) =>
    `כתב ערר ${i}, עמוד ${p + 1}\n\nהעוררת טוענת כי היטל ההשבחה חושב שלא כדין לפי תכנית ${i}/${p}. `.repeat(
      40,
    ),
  ).join('\f');

const bigText = Array.from({ length: 60 }, (_, p) =>
  `עמוד ${p + 1}: העוררת טוענת כי היטל ההשבחה חושב שלא כדין, וכי השמאי התעלם מהתכנית הקודמת. `.repeat(200),
).join('\f');

type StatusData = {
  kinds: {
    kind: string;
    pending: number;
    running: number;
    failed: number;
    dead: number;
    succeeded: number;
  }[];
};

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('npm start killed mid-work, restarted on the same DATA_DIR', () => {
  let dataDir = '';
  let server: SpawnedServer | undefined;
  let tokens: Record<string, string> = {};
  let caseId = '';
  const uploads = Array.from({ length: 10 }, (_, i) => i);
  const uploadArgs = (i: number) => ({
    corpus: 'case',
    case_id: caseId,
    text: docText(i),
    title: `מסמך ${i}`,
  });
  const call = (agent: string, tool: string, args: unknown) =>
    (server as SpawnedServer).call(tokens[agent] as string, tool, args);
  const restart = async () => {
    const port = server?.port;
    server = await spawnServer({ dataDir, ...(port === undefined ? {} : { port }) });
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'chambers-crash-'));
    server = await spawnServer({ dataDir });
    tokens = firstStartTokens(server.output());
    caseId = expectOk<{ case: { id: string } }>(
      await call('ceo', 'case_create', { case_number: 'ערר 9/26', title: 'קריסה' }),
    ).case.id;
  }, 300_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) await server.kill9();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('during uploads: what was acknowledged is there, a repeat of every upload makes no duplicate', async () => {
    const acknowledged = new Map<number, string>();
    const inFlight = uploads.map(async (i) => {
      const env = await call('ceo', 'document_upload', uploadArgs(i)).catch(() => null);
      if (env?.ok) acknowledged.set(i, (env.data as { document: { id: string } }).document.id);
    });
    await until('three uploads acknowledged', async () => (acknowledged.size >= 3 ? true : undefined));
    await (server as SpawnedServer).kill9();
    await Promise.all(inFlight);
    expect(acknowledged.size).toBeLessThan(uploads.length + 1);

    await restart(); // the dead process's lock is stale: no refusal
    for (const [i, id] of acknowledged) {
      const again = expectOk<{ document: { id: string } }>(
        await call('ceo', 'document_upload', uploadArgs(i)),
      );
      expect(again.document.id).toBe(id);
    }
    const ids = new Set<string>();
    for (const i of uploads) {
      ids.add(
        expectOk<{ document: { id: string } }>(await call('ceo', 'document_upload', uploadArgs(i))).document
          .id,
      );
    }
    expect(ids.size).toBe(uploads.length);
    const listed = expectOk<{ items: { id: string }[] }>(
      await call('ceo', 'document_list', { case_id: caseId, limit: 50 }),
    );
    expect(listed.items.map((d) => d.id).sort()).toEqual([...ids].sort());
  }, 300_000);

  it('during a drain: every job ends succeeded, once in effect', async () => {
    // A large document (≈1.5 MB of text, 60 pages): its extraction takes the drain loop seconds, and the
    // process is killed in the middle of it (the loop claims it as soon as the upload kicks it).
    const big = expectOk<{ document: { id: string } }>(
      await call('ceo', 'document_upload', { corpus: 'case', case_id: caseId, text: bigText, title: 'גדול' }),
    ).document.id;
    // Killed while its text job runs: as soon as the drain loop holds it (not after a fixed wait, which a
    // faster reader outruns).
    await until(
      'the big document’s text job running',
      async () => {
        const env = await call('ceo', 'extraction_status', { document_id: big });
        const held =
          env.ok &&
          (env.data as { jobs?: { kind: string; state: string }[] }).jobs?.some(
            (j) => j.kind === 'document_extract' && j.state === 'running',
          );
        return held ? true : undefined;
      },
      30_000,
    );
    await (server as SpawnedServer).kill9();

    await restart();
    // Jobs the dead process held run again at once (not after their 2-minute lease): one process per DATA_DIR.
    const done = await until(
      'every job settled',
      async () => {
        const env = await call('ceo', 'extraction_status', {});
        const kinds = env.ok ? (env.data as StatusData).kinds : [];
        const open = kinds.reduce((n, k) => n + k.pending + k.running + k.failed, 0);
        return kinds.length > 0 && open === 0 ? kinds : undefined;
      },
      120_000,
    );
    expect(done.reduce((n, k) => n + k.dead, 0)).toBe(0);
    const text = expectOk<{ pages: { page: number }[] }>(
      await call('analyst', 'document_text_get', { document_id: big, from_page: 60, to_page: 60 }),
    );
    expect(text.pages.map((p) => p.page)).toEqual([60]);
    await (server as SpawnedServer).stop();

    const db = await openPglite({ dataDir: pgliteDir(dataDir) });
    try {
      const q = async (sql: string) => (await db.client.query<{ n: number }>(sql)).rows[0]?.n;
      expect(await q(`select count(*)::int as n from documents where case_id = '${caseId}'`)).toBe(
        uploads.length + 1,
      );
      expect(await q(`select count(*)::int as n from documents where status <> 'ready'`)).toBe(0);
      // One job per (kind, document), all succeeded.
      expect(
        await q(
          `select count(*)::int as n from (select kind, dedupe_key from jobs group by 1, 2 having count(*) > 1) d`,
        ),
      ).toBe(0);
      expect(await q(`select count(*)::int as n from jobs where state <> 'succeeded'`)).toBe(0);
      expect(await q(`select count(*)::int as n from jobs where kind = 'document_extract'`)).toBe(
        uploads.length + 1,
      );
      expect(await q('select count(*)::int as n from document_pages')).toBe(uploads.length * 6 + 60);
      // Each document's pages as its extraction counted them, once (pages and chunks are keyed per document).
      expect(
        await q(
          `select count(*)::int as n from documents d
            where d.page_count is distinct from (select count(*) from document_pages p where p.document_id = d.id)`,
        ),
      ).toBe(0);
      // The big document's extraction was taken back from the dead process: a second attempt finished it.
      expect(
        await q(`select attempt as n from jobs where kind = 'document_extract' and dedupe_key = '${big}'`),
      ).toBe(2);
    } finally {
      await db.close();
    }
  }, 300_000);

  it('during lease-bound writes: each write once, and the lease unusable past its time', async () => {
    await restart();
    const projectId = `proj-${Date.now().toString(36)}`;
    expectOk(
      await call('ceo', 'hai_bind_project', {
        project_id: projectId,
        device_id: DEVICE,
        mount_path: `/home/owner/${projectId}`,
        ...gate,
      }),
    );
    const mission = expectOk<{ mission: { id: string } }>(
      await call('ceo', 'hai_open_mission', {
        name: `m-${Date.now().toString(36)}`,
        title: 'Appeal 9/26 — analysis',
        project_id: projectId,
        goal: 'Prepare the analysis of the appeal',
        in_scope: ['analysis', 'research'],
        out_of_scope: ['drafting'],
        criteria: [{ id: 'facts-mapped', description: 'The facts are mapped', verification: 'qa checks' }],
        expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        max_sessions: 2,
      }),
    ).mission;
    const lease = expectOk<{ lease: { lease_id: string; expires_at: string } }>(
      await call('analyst', 'hai_authorize_session', {
        mission_id: mission.id,
        contract_version: 1,
        device_id: DEVICE,
        ttl_seconds: 60,
      }),
    ).lease;
    const activities = Array.from({ length: 12 }, (_, i) => `analysis:step-${i}`);
    let answered = 0;
    const writes = activities.map(async (activity) => {
      const env = await call('analyst', 'hai_check_activity', { lease_id: lease.lease_id, activity }).catch(
        () => null,
      );
      if (env?.ok) answered++;
    });
    await until('a lease-bound write answered', async () => (answered >= 1 ? true : undefined));
    await (server as SpawnedServer).kill9();
    await Promise.all(writes);

    await restart();
    for (const activity of activities) {
      expectOk(await call('analyst', 'hai_check_activity', { lease_id: lease.lease_id, activity }));
    }
    await (server as SpawnedServer).stop();

    // The directory in process, with the tools' clock past the lease's end: the lease is refused.
    const handle = await openPglite({ dataDir: pgliteDir(dataDir) });
    try {
      const { rows } = await handle.client.query<{ n: number; expires: Date }>(
        `select count(*)::int as n, (select expires_at from hai_leases where id = $1) as expires
           from hai_activity_checks where lease_id = $1`,
        [lease.lease_id],
      );
      expect(rows[0]?.n).toBe(activities.length);
      expect(new Date(rows[0]?.expires as Date).toISOString()).toBe(lease.expires_at);
      const later = new Date(new Date(lease.expires_at).getTime() + 1_000);
      const chambers = createChambers({
        agents: await loadAgentsFromDir('agents'),
        env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0' },
        services: async () => ({ db: handle.db, kv: createPostgresKv(handle.db) }),
        tools,
        jobHandlers,
        defaultOwnerGate: 'ack',
        now: () => later,
      });
      const res = await chambers.app.fetch(
        new Request('http://chambers.invalid/v1/tools/hai_check_activity', {
          method: 'POST',
          headers: { Authorization: `Bearer ${tokens.analyst}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ lease_id: lease.lease_id, activity: 'analysis:after-the-end' }),
        }),
      );
      expect(errorCode((await res.json()) as Envelope)).toBe('lease_expired');
    } finally {
      await handle.close();
    }
  }, 300_000);

  it('a second npm start on a DATA_DIR in use refuses, naming the directory and the holder', async () => {
    await restart();
    const second = await spawnServer({ dataDir, wait: false });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `Another Chambers server (pid ${(server as SpawnedServer).child.pid}) is using ${dataDir}. Stop it, or start with another DATA_DIR.`,
    );
    // The first is unharmed.
    expectOk(await call('ceo', 'case_get', { case_id: caseId }));
    await (server as SpawnedServer).stop();
  }, 180_000);
});

describe('npm start with the key-value store unreachable', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'chambers-kvdown-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('says so once at start, naming the host and not the token, and serves reads', async () => {
    const token = 'a-secret-upstash-token-value';
    const closed = await freePort(); // nothing listens there
    const s = await spawnServer({
      dataDir,
      env: { UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${closed}`, UPSTASH_REDIS_REST_TOKEN: token },
    });
    try {
      const lines = s
        .output()
        .split('\n')
        .filter((l) => l.includes('key-value store at'));
      expect(lines).toEqual([
        `The key-value store at 127.0.0.1:${closed} (UPSTASH_REDIS_REST_URL) is unreachable: nothing accepts connections there. ` +
          'The server starts anyway; calls that write answer dependency_unavailable until it answers, then recover without a restart.',
      ]);
      expect(s.output()).not.toContain(token);
      const ceo = firstStartTokens(s.output()).ceo as string;
      expect((await s.call(ceo, 'case_list', {})).ok).toBe(true);
      expect(errorCode(await s.call(ceo, 'case_create', { case_number: 'x', title: 'y' }))).toBe(
        'dependency_unavailable',
      );
    } finally {
      await s.stop();
    }
  }, 180_000);
});
