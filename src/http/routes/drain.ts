// POST /worker/drain: drains one bounded batch of the durable queue and returns what it did. For cron
// jobs, deploy hooks and operators; authenticated by WORKER_SECRET, never by an agent's bearer token.
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { constantTimeEqual } from '../../contract/hash.ts';
import { drainJobs } from '../../jobs/drain.ts';
import type { JobHandler } from '../../jobs/queue.ts';
import type { Logger } from '../../log.ts';
import type { RequestServices } from '../services.ts';

type WorkerVars = { requestId: string; log: Logger };

const drainBody = z.strictObject({
  max_jobs: z.int().min(1).max(200).optional(),
  budget_ms: z.int().min(100).max(25_000).optional(),
});

export function mountWorkerRoutes<V extends WorkerVars>(
  app: Hono<{ Variables: V }>,
  o: {
    secret: string | null;
    handlers: Readonly<Record<string, JobHandler>>;
    services(c: Context): Promise<RequestServices>;
  },
): void {
  app.post('/worker/drain', async (c) => {
    const challenge = (description: string) =>
      c.json({ error: 'unauthorized', error_description: description }, 401, {
        'WWW-Authenticate': `Bearer realm="chambers-worker", error="invalid_token"`,
      });
    if (o.secret === null) return challenge('The worker route is disabled: WORKER_SECRET is not set.');
    const given = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (given === undefined)
      return challenge('The worker secret is required (Authorization: Bearer <secret>).');
    // Agent tokens are refused here like any other wrong secret: only WORKER_SECRET opens this route.
    if (!constantTimeEqual(given, o.secret)) return challenge('The worker secret is not valid.');
    const text = await c.req.text();
    let parsed: unknown = {};
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return c.json({ error: 'invalid_args', message: 'The body is not valid JSON.' }, 400);
    }
    const body = drainBody.safeParse(parsed);
    if (!body.success) {
      return c.json({ error: 'invalid_args', message: z.prettifyError(body.error) }, 400);
    }
    const services = await o.services(c);
    try {
      const report = await drainJobs({
        db: services.db,
        handlers: o.handlers,
        maxJobs: body.data.max_jobs,
        budgetMs: body.data.budget_ms,
        workerId: `route-${c.get('requestId')}`,
        log: c.get('log'),
      });
      return c.json(report);
    } finally {
      await services.release?.();
    }
  });
}
