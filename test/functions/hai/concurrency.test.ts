// Capacity holds under concurrency: 50 hai_authorize_session calls at once against a contract that allows
// two sessions never produce a third live lease (the count and the insert run under the mission row lock).
import { and, eq, isNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Envelope } from '../../../src/contract/envelope.ts';
import { haiEvidence, haiLeases } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  authorize,
  contract,
  forEachStack,
  gate,
  LEASE_STACKS,
  type LeaseData,
  lease,
  openMission,
  prove,
} from './_hai.ts';

const agents = ['analyst', 'researcher', 'writer', 'qa'] as const;

forEachStack('hai_authorize_session under concurrency', LEASE_STACKS, (env) => {
  it('50 concurrent sessions against capacity 2: exactly two leases, 48 parallel_session_denied', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 2 });
    // One client per agent; the calls go out together.
    const results: Envelope[] = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        authorize(e, agents[i % agents.length] as (typeof agents)[number], m.mission.id, {
          harness_id: `run-${i}`,
        }),
      ),
    );
    const codes = results.map((r) => (r.ok ? 'ok' : errorCode(r)));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(2);
    expect(codes.filter((c) => c === 'parallel_session_denied')).toHaveLength(48);
    const live = await e.s.db.db
      .select()
      .from(haiLeases)
      .where(and(eq(haiLeases.missionId, m.mission.id), isNull(haiLeases.revokedAt)));
    expect(live).toHaveLength(2);
  });

  it('50 concurrent identical calls of one agent: one lease, every success names it', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 2 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => authorize(e, 'analyst', m.mission.id, { harness_id: 'same' })),
    );
    const ids = new Set(
      results.filter((r) => r.ok).map((r) => (r.ok ? (r.data as LeaseData).lease.lease_id : '')),
    );
    expect(ids.size).toBe(1);
    // A duplicate that arrives while the first is running is told to retry; nothing else happens.
    for (const r of results) if (!r.ok) expect(errorCode(r)).toBe('in_progress');
    const rows = await e.s.db.db.select().from(haiLeases).where(eq(haiLeases.missionId, m.mission.id));
    expect(rows).toHaveLength(1);
  });

  it('a recontract racing 40 lease-bound writes: each write lands before it or is refused, never an internal error', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 2 });
    const leases = [await lease(e, 'analyst', m.mission.id), await lease(e, 'researcher', m.mission.id)];
    const agentOf = ['analyst', 'researcher'] as const;
    const writes = Array.from({ length: 40 }, (_, i) => {
      const k = i % 2;
      const id = (leases[k] as { lease_id: string }).lease_id;
      return i % 4 < 2
        ? e.s.call(agentOf[k] as 'analyst', 'hai_check_activity', { lease_id: id, activity: `analysis:${i}` })
        : prove(e, agentOf[k] as 'analyst', id, { checked: `check ${i}` });
    });
    const recontract = e.s.call('ceo', 'hai_recontract', {
      mission_id: m.mission.id,
      expected_version: 1,
      ...contract(e.clock),
      ...gate,
    });
    const results = await Promise.all(writes);
    expectOk(await recontract);
    for (const r of results) expect(r.ok ? 'ok' : errorCode(r)).toMatch(/^(ok|lease_revoked)$/);
    // Whatever landed, landed under the old epoch: nothing was written for a revoked lease after the fact.
    const evidence = await e.s.db.db
      .select()
      .from(haiEvidence)
      .where(eq(haiEvidence.missionId, m.mission.id));
    expect(evidence.length).toBe(results.filter((r, i) => r.ok && i % 4 >= 2).length);
  });
});
