// The extraction Worker (wrangler.extraction.toml): the job handlers of entry/registries.ts with the heavy
// libraries they need (pdf.js through unpdf; the DOCX writer once it exists). No public route: only
// the MCP Worker reaches it, through its EXTRACTION service binding, with one request per drain that names the
// database to drain (src/jobs/remote.ts). It keeps no secrets.
import type { ExecutionContext } from '@cloudflare/workers-types';
import type { Env } from '../src/config.ts';
import { openNeon } from '../src/db/neon.ts';
import { configuredOcrEngine } from '../src/documents/ocr/configured.ts';
import { drainJobs } from '../src/jobs/drain.ts';
import type { JobHandler } from '../src/jobs/queue.ts';
import { DRAIN_PATH, drainRequestSchema, EXTRACTION_ORIGIN } from '../src/jobs/remote.ts';
import { createLogger } from '../src/log.ts';
import { makeJobHandlers } from './registries.ts';

const notFound = () => new Response('Not found', { status: 404 });

export default {
  async fetch(request: Request, env: Env, _ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    // Only the binding's internal address is served: a public route, if one were ever added, reaches nothing.
    if (url.origin !== EXTRACTION_ORIGIN || url.pathname !== DRAIN_PATH || request.method !== 'POST')
      return notFound();
    const parsed = drainRequestSchema.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ error: 'bad drain request' }, { status: 400 });
    const body = parsed.data;
    const log = createLogger(body.log_level ?? 'info', { worker: body.worker_id });
    // Scanned pages go to the engine the Worker's settings name (OCR_ENGINE: the managed service here, since
    // Tesseract cannot start in workerd — docs/operations.md); made per request from env, as every client is.
    const jobHandlers = makeJobHandlers({ ocr: () => configuredOcrEngine(env) });
    const handlers =
      body.kinds === undefined
        ? jobHandlers
        : (Object.fromEntries(
            Object.entries(jobHandlers).filter(([kind]) => body.kinds?.includes(kind)),
          ) as Record<string, JobHandler>);
    const handle = openNeon(body.database_url, body.neon_ws_proxy ? { wsProxy: body.neon_ws_proxy } : {});
    try {
      const report = await drainJobs({
        db: handle.db,
        handlers,
        maxJobs: body.max_jobs,
        budgetMs: body.budget_ms,
        workerId: body.worker_id,
        log,
      });
      return Response.json(report);
    } finally {
      await handle.close();
    }
  },
};
