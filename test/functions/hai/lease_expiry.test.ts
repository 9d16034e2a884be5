// Leases that end while a call runs: the lease is judged again where the call writes (mission and lease
// rows locked, the clock read after the lock), so a call admitted with a valid lease writes nothing once the
// lease expired or was revoked meanwhile — whatever the key-value copy still says.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { haiEvidence, haiMissions } from '../../../src/db/schema/hai.ts';
import { leaseKvKey } from '../../../src/governance/leases.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { forEachStack, holdMissionRow, LEASE_STACKS, lease, openMission, prove } from './_hai.ts';

/** The server's SQL passes through here; a test arms it to act at one statement of a call in flight. */
let hook: ((sql: string) => void) | null = null;

forEachStack(
  'hai lease ending during a call',
  LEASE_STACKS,
  (env, stack) => {
    it('a lease that expires while hai_proof runs: lease_expired, no evidence written', async () => {
      const e = env();
      const m = await openMission(e);
      const l = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 600 });
      let reached = false;
      hook = (q) => {
        // The call passed admission and now locks the lease to write: time runs out right here.
        if (/for share/i.test(q) && q.includes('hai_leases')) {
          reached = true;
          e.clock.set(new Date(Date.parse(l.expires_at) + 1));
          hook = null;
        }
      };
      const env1 = await prove(e, 'analyst', l.lease_id, { checked: 'All facts' });
      hook = null;
      expect(reached).toBe(true);
      expect(errorCode(env1)).toBe('lease_expired');
      expect(
        await e.s.db.db.select().from(haiEvidence).where(eq(haiEvidence.leaseId, l.lease_id)),
      ).toHaveLength(0);
      // The key-value copy still lives (its TTL is real time); Postgres and the clock decided.
      expect(await e.s.kv.get(leaseKvKey(l.lease_id))).not.toBeNull();
      expect(errorCode(await e.s.call('analyst', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
        'lease_expired',
      );
    });

    it('a lease that expires while hai_check_activity runs: lease_expired', async () => {
      const e = env();
      const m = await openMission(e);
      const l = await lease(e, 'researcher', m.mission.id, { ttl_seconds: 600 });
      hook = (q) => {
        if (/for share/i.test(q) && q.includes('hai_leases')) {
          e.clock.set(new Date(Date.parse(l.expires_at) + 1));
          hook = null;
        }
      };
      const res = await e.s.call('researcher', 'hai_check_activity', {
        lease_id: l.lease_id,
        activity: 'analysis',
      });
      hook = null;
      expect(errorCode(res)).toBe('lease_expired');
    });

    it('revoked in Postgres while the key-value copy still holds the lease: lease_revoked', async () => {
      const e = env();
      const m = await openMission(e);
      const l = await lease(e, 'writer', m.mission.id);
      expectOk(await e.s.call('writer', 'hai_get_contract', { lease_id: l.lease_id }));
      // The epoch moves in Postgres only (as a recontract would), the KV copy is untouched.
      await e.s.db.db
        .update(haiMissions)
        .set({ leaseEpoch: sql`${haiMissions.leaseEpoch} + 1` })
        .where(eq(haiMissions.id, m.mission.id));
      expect(await e.s.kv.get(leaseKvKey(l.lease_id))).not.toBeNull();
      expect(errorCode(await e.s.call('writer', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
        'lease_revoked',
      );
      expect(
        errorCode(
          await e.s.call('writer', 'hai_check_activity', { lease_id: l.lease_id, activity: 'analysis' }),
        ),
      ).toBe('lease_revoked');
    });

    // Needs a second connection holding a row lock: a real server, not the single-connection PGlite.
    if (stack.db !== 'postgres') return;
    it('a call blocked behind a revocation in flight is refused once it commits', async () => {
      const e = env();
      const m = await openMission(e);
      const l = await lease(e, 'qa', m.mission.id);
      const holder = await holdMissionRow(e, m.mission.id);
      try {
        const call = prove(e, 'qa', l.lease_id, { criterion_id: 'law-verified', checked: 'quotes' });
        // Wait until the call is really waiting on the mission row.
        await holder.untilWaiting();
        await holder.client.query('update hai_missions set lease_epoch = lease_epoch + 1 where id = $1', [
          m.mission.id,
        ]);
        await holder.commit();
        expect(errorCode(await call)).toBe('lease_revoked');
      } finally {
        await holder.end();
      }
      expect(
        await e.s.db.db.select().from(haiEvidence).where(eq(haiEvidence.leaseId, l.lease_id)),
      ).toHaveLength(0);
    });
  },
  { onQuery: (q) => hook?.(q) },
);
