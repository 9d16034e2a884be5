// POST /worker/drain: drains one bounded batch of the durable queue and returns what it did. For cron
// jobs, deploy hooks and operators; authenticated by WORKER_SECRET, never by an agent's bearer token.
import type { Hono } from 'hono';
import * as z from 'zod';
import { errorEnvelope } from '../../contract/envelope.ts';
import { invalidArgs } from '../../contract/errors.ts';
import { constantTimeEqual } from '../../contract/hash.ts';
import { drainJobs } from '../../jobs/drain.ts';
import type { Logger } from '../../log.ts';
import { refuse } from '../errors.ts';
import { bearerToken, challenge } from '../middleware/guard.ts';
import type { Runtime } from '../runtime.ts';

type WorkerVars = { requestId: string; log: Logger };

const drainBody = z.strictObject({
  max_jobs: z.int().min(1).max(200).optional(),
  budget_ms: z.int().min(100).max(25_000).optional(),
});

/** The body's problems in our words: a refusal never carries zod's wording. */
const drainIssues = (error: z.ZodError) =>
  error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: key,
        message: 'unknown field (the fields are max_jobs and budget_ms)',
      }));
    }
    const field = String(issue.path[0] ?? '');
    if (field === 'max_jobs') return [{ path: field, message: 'must be a whole number from 1 to 200' }];
    if (field === 'budget_ms') return [{ path: field, message: 'must be a whole number from 100 to 25000' }];
    return [{ path: '(body)', message: 'must be a JSON object' }];
  });

const REALM = 'chambers-worker';
const HINT = 'Send Authorization: Bearer $WORKER_SECRET (agent tokens do not open this route).';

export function mountWorkerRoutes<V extends WorkerVars>(
  app: Hono<{ Variables: V }>,
  o: {
    secret: string | null;
    /** Its drain, when set, runs elsewhere (the MCP Worker); then no store is opened here. */
    runtime: Pick<Runtime, 'services' | 'jobHandlers' | 'drain' | 'now'>;
  },
): void {
  app.post('/worker/drain', async (c) => {
    const deny = (message: string) => challenge(c, message, REALM, HINT);
    if (o.secret === null) return deny('The worker route is disabled: WORKER_SECRET is not set.');
    const given = bearerToken(c);
    if (given === undefined) return deny('The worker secret is required (Authorization: Bearer <secret>).');
    // Agent tokens are refused here like any other wrong secret: only WORKER_SECRET opens this route.
    if (!constantTimeEqual(given, o.secret)) return deny('The worker secret is not valid.');
    const text = await c.req.text();
    let parsed: unknown = {};
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return refuse(c, errorEnvelope('invalid_args', 'The body is not valid JSON.'));
    }
    const body = drainBody.safeParse(parsed);
    if (!body.success) {
      const error = invalidArgs(
        drainIssues(body.error),
        'Send {"max_jobs": 1..200, "budget_ms": 100..25000}, both optional.',
      );
      return refuse(
        c,
        errorEnvelope('invalid_args', error.message, { details: error.details, hint: error.hint }),
      );
    }
    const workerId = `route-${c.get('requestId')}`;
    const { drain } = o.runtime;
    if (drain !== undefined) {
      return c.json(await drain(c, { maxJobs: body.data.max_jobs, budgetMs: body.data.budget_ms, workerId }));
    }
    const services = await o.runtime.services(c);
    try {
      const report = await drainJobs({
        db: services.db,
        handlers: o.runtime.jobHandlers,
        maxJobs: body.data.max_jobs,
        budgetMs: body.data.budget_ms,
        workerId,
        log: c.get('log'),
        now: o.runtime.now,
      });
      return c.json(report);
    } finally {
      await services.release?.();
    }
  });
}
