/**
 * `npm run backup` and `npm run restore` on the embedded database: a snapshot of a running server's populated
 * PGlite (taken through the server, while writes go on), restored into an empty DATA_DIR, holds exactly what
 * the server had at that moment, table by table; restore refuses a non-empty directory; a server starts on
 * the restored directory and serves what was backed up.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteDir } from '../../src/db/backup.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { expectOk } from '../harness/server.ts';
import { firstStartTokens, type SpawnedServer, spawnServer } from '../harness/spawned.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function node(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const base = { ...process.env };
    delete base.DATABASE_URL;
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env: { ...base, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('exit', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

/** Every table of the database (ours and the migrations' journal), each as its rows in a stable order. */
async function tablesOf(dataDir: string): Promise<Record<string, string[]>> {
  const handle = await openPglite({ dataDir: pgliteDir(dataDir) });
  try {
    const { rows } = await handle.client.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2`,
    );
    const out: Record<string, string[]> = {};
    for (const t of rows) {
      const r = await handle.client.query<{ j: string }>(
        `select row_to_json(t)::text as j from "${t.schema}"."${t.name}" t`,
      );
      out[`${t.schema}.${t.name}`] = r.rows.map((x) => x.j).sort();
    }
    return out;
  } finally {
    await handle.close();
  }
}

describe('backup and restore of the embedded database', () => {
  const dirs: string[] = [];
  const servers: SpawnedServer[] = [];
  const tempDir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'chambers-backup-'));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null) await s.kill9();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('round-trips a populated database taken while the server runs, table by table', async () => {
    const dataDir = await tempDir();
    const server = await spawnServer({ dataDir });
    servers.push(server);
    const tokens = firstStartTokens(server.output());
    const ceo = tokens.ceo as string;
    const caseIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = expectOk<{ case: { id: string } }>(
        await server.call(ceo, 'case_create', { case_number: `ערר ${100 + i}/25`, title: `גיבוי ${i}` }),
      );
      caseIds.push(created.case.id);
      expectOk(
        await server.call(ceo, 'document_upload', {
          corpus: 'case',
          case_id: created.case.id,
          text: `כתב ערר ${i}\n\nהעוררת טוענת כי ההיטל חושב שלא כדין. סעיף ${i}.`,
          title: `כתב ערר ${i}`,
        }),
      );
    }
    expectOk(
      await server.call(tokens.researcher as string, 'internal_decision_add', {
        text: 'החלטת ועדת הערר: הערר נדחה.',
        number: 'ערר 6091/09',
      }),
    );
    expectOk(await server.call(ceo, 'case_update', { case_id: caseIds[0], title: 'גיבוי — עודכן' }));
    // The uploads' background work is done first, so what the server holds at the snapshot is what it holds
    // when it stops (the comparison below); the reads still run during the backup.
    for (;;) {
      const ran = expectOk<{ claimed: number }>(await server.call(ceo, 'extraction_run', { max_jobs: 50 }));
      const status = expectOk<{ kinds: { pending: number; running: number; failed: number }[] }>(
        await server.call(ceo, 'extraction_status', {}),
      );
      if (ran.claimed === 0 && status.kinds.every((k) => k.pending + k.running + k.failed === 0)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // Reads go on while the snapshot is taken; the backup is between transactions whatever runs.
    let reading = true;
    const reads = (async () => {
      while (reading) await server.call(ceo, 'case_list', {});
    })();
    const file = join(await tempDir(), 'snap.tar.gz');
    const backup = await node('entry/backup.ts', ['--out', file], { DATA_DIR: dataDir });
    reading = false;
    await reads;
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toMatch(
      /^Backed up .* to .*snap\.tar\.gz \(\d+ KiB; through the running server\)\.$/m,
    );
    await server.stop();
    // With no server running, the command opens the directory itself, under its lock.
    const offline = await node('entry/backup.ts', ['--out', `${file}.offline`], { DATA_DIR: dataDir });
    expect(offline.code, offline.err).toBe(0);
    expect(offline.out).toContain('no server was running');

    const restored = join(await tempDir(), 'restored');
    const restore = await node('entry/restore.ts', [file], { DATA_DIR: restored });
    expect(restore.code, restore.err).toBe(0);
    expect(restore.out).toMatch(/^Restored .* \(\d+ tables\)/);

    const [before, after] = [await tablesOf(dataDir), await tablesOf(restored)];
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const t of Object.keys(before)) expect(after[t], t).toEqual(before[t]);
    expect(before['public.cases']).toHaveLength(3);
    expect(before['public.documents']?.length).toBeGreaterThanOrEqual(4);
    expect(before['public.audit_log']?.length).toBeGreaterThanOrEqual(8);

    // A server on the restored directory serves the backed-up cases with the old tokens.
    const again = await spawnServer({ dataDir: restored });
    servers.push(again);
    const listed = expectOk<{ items: { id: string }[] }>(await again.call(ceo, 'case_list', {}));
    expect(listed.items.map((c) => c.id).sort()).toEqual([...caseIds].sort());
    await again.stop();
  }, 300_000);

  it('refuses a non-empty directory, a running server, and a file that is not a backup', async () => {
    const full = await tempDir();
    await writeFile(join(full, 'something'), 'x');
    const nonEmpty = await node('entry/restore.ts', ['/nonexistent.tar.gz'], { DATA_DIR: full });
    expect(nonEmpty.code).toBe(1);
    expect(nonEmpty.err).toContain(`${full} is not empty (something): restore into an empty or new DATA_DIR`);
    const junk = join(full, 'junk.tar.gz');
    await writeFile(junk, 'not a tarball');
    const bad = await node('entry/restore.ts', [junk], { DATA_DIR: join(full, 'new') });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is not a Chambers backup');
    const usage = await node('entry/restore.ts', [], { DATA_DIR: full });
    expect(usage.code).toBe(2);
  }, 120_000);
});
