import { eq, sql } from 'drizzle-orm';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { haiMissions, haiProjects } from '../../src/db/schema/hai.ts';
import { liveLeaseCount, storeHealth } from './_state.ts';

export const hai_health = defineTool({
  name: 'hai_health',
  title: 'Health of the governance service',
  description:
    'Reports whether the database and the key-value store (where session leases are cached) answer, and ' +
    'the size of the governance state: projects, active missions and live session leases. Read-only and ' +
    'cheap; use hai_status for the details of projects and missions.',
  input: {},
  mutates: false,
  async run({ ctx }) {
    const health = await storeHealth(ctx);
    let counts: { projects: number; active_missions: number; live_leases: number } | null = null;
    if (health.database === 'up') {
      const [[projects], [missions], leases] = await Promise.all([
        ctx.db.select({ n: sql<number>`count(*)::int` }).from(haiProjects),
        ctx.db
          .select({ n: sql<number>`count(*)::int` })
          .from(haiMissions)
          .where(eq(haiMissions.state, 'active')),
        liveLeaseCount(ctx),
      ]);
      counts = { projects: projects?.n ?? 0, active_missions: missions?.n ?? 0, live_leases: leases };
    }
    const healthy = health.database === 'up' && health.kv.status === 'up';
    return ok(
      { healthy, ...health, counts, checked_at: ctx.now().toISOString() },
      healthy ? 'Database and key-value store are up' : 'Degraded: a backing store does not answer',
    );
  },
});
