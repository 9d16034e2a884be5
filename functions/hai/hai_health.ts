import { eq, sql } from 'drizzle-orm';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { haiInbox, haiLanes, haiMissions, haiProjects } from '../../src/db/schema/hai.ts';
import { liveLeaseCount, storeHealth } from './_state.ts';

export const hai_health = defineTool({
  name: 'hai_health',
  title: 'Health of the governance service',
  description:
    'Reports whether the database and the key-value store (where session leases are cached) answer, and ' +
    'the size of the governance state: projects, active missions, live session leases, active focus lanes ' +
    'and inbox items. Read-only and ' +
    'cheap; use hai_status for the details of projects and missions.',
  input: {},
  mutates: false,
  async run({ ctx }) {
    const health = await storeHealth(ctx);
    let counts: Record<
      'projects' | 'active_missions' | 'live_leases' | 'active_lanes' | 'inbox_items',
      number
    > | null = null;
    if (health.database === 'up') {
      const n = sql<number>`count(*)::int`;
      const [[projects], [missions], leases, [lanes], [inbox]] = await Promise.all([
        ctx.db.select({ n: sql<number>`count(*)::int` }).from(haiProjects),
        ctx.db
          .select({ n: sql<number>`count(*)::int` })
          .from(haiMissions)
          .where(eq(haiMissions.state, 'active')),
        liveLeaseCount(ctx),
        ctx.db.select({ n }).from(haiLanes).where(eq(haiLanes.state, 'active')),
        ctx.db.select({ n }).from(haiInbox),
      ]);
      counts = {
        projects: projects?.n ?? 0,
        active_missions: missions?.n ?? 0,
        live_leases: leases,
        active_lanes: lanes?.n ?? 0,
        inbox_items: inbox?.n ?? 0,
      };
    }
    const healthy = health.database === 'up' && health.kv.status === 'up';
    return ok(
      { healthy, ...health, counts, checked_at: ctx.now().toISOString() },
      healthy ? 'Database and key-value store are up' : 'Degraded: a backing store does not answer',
    );
  },
});
