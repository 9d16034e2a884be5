import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { eq, sql } from '../../src/db/orm.ts';
import { haiInbox, haiLanes, haiMissions, haiProjects } from '../../src/db/schema/hai.ts';
import { healthOutput, liveLeaseCount, storeHealth } from '../../src/governance/status.ts';

const count = z.int().min(0);

const countsOutput = z
  .object({
    projects: count,
    active_missions: count,
    live_leases: count.describe('Session leases neither expired nor revoked'),
    active_lanes: count.describe('Active focus lanes over all projects'),
    inbox_items: count.describe('Parked ideas over all projects'),
  })
  .nullable()
  .describe('The size of the governance state; null when the database does not answer');

export const hai_health = defineTool({
  name: 'hai_health',
  title: 'Health of the governance service',
  description:
    'Whether the database and the key-value store (session lease cache) answer, and counts of ' +
    'projects, active missions, live leases, active lanes and inbox items. Cheap; hai_status has the ' +
    'details.',
  input: {},
  output: healthOutput.extend({
    healthy: z.boolean().describe('Both stores answer'),
    counts: countsOutput,
    checked_at: z.iso.datetime().describe('When this was checked'),
  }),
  mutates: false,
  async run({ ctx }) {
    const health = await storeHealth(ctx);
    let counts: z.input<typeof countsOutput> = null;
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
