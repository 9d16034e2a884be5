// C4 through the official client: concurrent identical mutations create once, retries replay, a key
// reused with other arguments is refused, and the natural key holds when the KV record is gone. Run on
// the embedded stack (PGlite + Postgres KV) and on the real services (PostgreSQL + Upstash → Redis).
import type { Client } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolList as tools } from '../../functions/index.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { latchTool } from '../harness/fixtures.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

type Created = { case: { id: string; title: string }; created: boolean };

// A mutation the test holds open: the first call waits on `latch` so a duplicate is provably in flight.
const latch = latchTool();

const envelopeOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  result.structuredContent as unknown as Envelope;

function idempotencySuite(stack: { db: 'pglite' | 'postgres'; kv: 'postgres' | 'upstash' }) {
  let s: TestServer;
  const caseRows = (caseNumber: string) =>
    s.db.db.select().from(cases).where(eq(cases.caseNumber, caseNumber));
  const auditRows = (tool: string, key: string) =>
    s.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tool, tool), eq(auditLog.idempotencyKey, key)));

  beforeAll(async () => {
    s = await startTestServer({
      ...stack,
      tools: [...tools, latch.tool],
      grants: { ceo: ['probe_latch_run'] },
    });
  });
  afterAll(async () => s?.close());

  it('50 concurrent identical case_create calls from 5 clients of both eras create exactly one case', async () => {
    const clients = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => s.connect('ceo', { era: i % 2 === 0 ? 'legacy' : 'modern' })),
    );
    const args = { case_number: `IDEM-${stack.db}-${stack.kv}-50`, title: 'חמישים בבת אחת' };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (clients[i % clients.length] as Client).callTool({ name: 'case_create', arguments: args }),
      ),
    );
    const envelopes = results.map(envelopeOf);
    const ids = new Set<string>();
    let fresh = 0;
    let inProgress = 0;
    for (const env of envelopes) {
      if (!env.ok) {
        // The only acceptable failure is "the same call is still running".
        expect(env.error.code).toBe('in_progress');
        inProgress += 1;
        continue;
      }
      const data = env.data as Created;
      ids.add(data.case.id);
      if (data.created && env.replayed !== true) fresh += 1;
      else expect(data.created === false || env.replayed === true).toBe(true);
    }
    expect(fresh).toBe(1);
    expect(ids.size).toBe(1);
    expect(inProgress).toBeLessThan(50);
    const rows = await caseRows(args.case_number);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe([...ids][0]);
    // C8: every one of the 50 mutating calls left exactly one audit row, whatever its outcome.
    const audit = await auditRows('case_create', args.case_number);
    expect(audit).toHaveLength(50);
    expect(audit.filter((r) => r.outcome === 'ok')).toHaveLength(1);
    expect(audit.filter((r) => r.errorCode === 'in_progress')).toHaveLength(inProgress);
  });

  it('a retried call is replayed: same result, replayed: true, nothing new written', async () => {
    const args = { case_number: `IDEM-${stack.db}-${stack.kv}-retry`, title: 'ניסיון חוזר' };
    const first = await s.call('ceo', 'case_create', args);
    const original = expectOk<Created>(first);
    expect(original.created).toBe(true);
    expect(first.ok && first.replayed).toBeFalsy();
    for (const era of ['legacy', 'modern'] as const) {
      const client = await s.connect('ceo', { era });
      const again = envelopeOf(await client.callTool({ name: 'case_create', arguments: args }));
      expect(again).toMatchObject({ ok: true, replayed: true });
      // The replay is the stored envelope of the first call, byte for byte apart from the flag.
      expect({ ...again, replayed: undefined }).toEqual({ ...first, replayed: undefined });
    }
    expect(await caseRows(args.case_number)).toHaveLength(1);
    const outcomes = (await auditRows('case_create', args.case_number)).map((r) => r.outcome).sort();
    expect(outcomes).toEqual(['ok', 'replayed', 'replayed']);
  });

  it('the same key with different arguments is idempotency_key_reuse and changes nothing', async () => {
    const caseNumber = `IDEM-${stack.db}-${stack.kv}-reuse`;
    expectOk(await s.call('ceo', 'case_create', { case_number: caseNumber, title: 'מקור' }));
    const reuse = await s.call('ceo', 'case_create', { case_number: caseNumber, title: 'אחר' });
    expect(errorCode(reuse)).toBe('idempotency_key_reuse');
    expect(reuse.ok ? null : reuse.error.details).toMatchObject({ key: caseNumber });
    const rows = await caseRows(caseNumber);
    expect(rows.map((r) => r.title)).toEqual(['מקור']);
  });

  it('the natural key holds without the KV record: a repeat returns the case with created=false', async () => {
    const args = { case_number: `IDEM-${stack.db}-${stack.kv}-durable`, title: 'שכבה עמידה' };
    const first = expectOk<Created>(await s.call('ceo', 'case_create', args));
    // Lose the request-layer record (as if the KV store had been flushed).
    await s.kv.delete(`idem:v1:ceo:case_create:${sha256Hex(args.case_number)}`);
    const again = await s.call('ceo', 'case_create', args);
    expect(again.ok && again.replayed).toBeFalsy();
    const data = expectOk<Created>(again);
    expect(data.created).toBe(false);
    expect(data.case.id).toBe(first.case.id);
    expect(await caseRows(args.case_number)).toHaveLength(1);
  });

  it('a duplicate while the first call is in flight gets in_progress; after it finishes it is replayed', async () => {
    latch.reset();
    const key = `latch-${stack.db}-${stack.kv}`;
    const [a, b] = await Promise.all([
      s.connect('ceo', { era: 'legacy' }),
      s.connect('ceo', { era: 'modern' }),
    ]);
    const first = a.callTool({ name: 'probe_latch_run', arguments: { key } });
    await latch.entered();
    for (const client of [a, b]) {
      const dup = await client.callTool({ name: 'probe_latch_run', arguments: { key } });
      expect(dup.isError).toBe(true);
      expect(envelopeOf(dup)).toMatchObject({
        status: 'error',
        error: { code: 'in_progress', details: { key, retry_after_ms: expect.any(Number) } },
      });
    }
    latch.release();
    const done = envelopeOf(await first);
    expect(done).toMatchObject({ ok: true, data: { key, run: 1 } });
    const replay = envelopeOf(await b.callTool({ name: 'probe_latch_run', arguments: { key } }));
    expect(replay).toMatchObject({ ok: true, replayed: true, data: { key, run: 1 } });
    expect(latch.runs()).toBe(1);
  });

  it('a validation failure is never stored: the corrected call runs normally', async () => {
    const caseNumber = `IDEM-${stack.db}-${stack.kv}-invalid`;
    const bad = await s.call('ceo', 'case_create', { case_number: caseNumber, title: 'x'.repeat(301) });
    expect(errorCode(bad)).toBe('invalid_args');
    const good = await s.call('ceo', 'case_create', { case_number: caseNumber, title: 'תקין' });
    expect(expectOk<Created>(good).created).toBe(true);
    expect(good.ok && good.replayed).toBeFalsy();
  });
}

describe('C4 idempotency [pglite + postgres kv]', () => {
  idempotencySuite({ db: 'pglite', kv: 'postgres' });
});

// PGlite runs each query on the event loop, so there requests hardly overlap and duplicates are mostly
// replays; on the real services they overlap and some get in_progress. Both are covered by the same checks.
describeWithService('postgres', 'on the real services', () => {
  describeWithService('redis', 'C4 idempotency [postgres + upstash kv → redis]', () => {
    idempotencySuite({ db: 'postgres', kv: 'upstash' });
  });
});
