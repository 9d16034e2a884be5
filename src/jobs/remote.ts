// The drain across the Workers split: the MCP Worker holds no heavy library and runs no job; every drain
// (a kick, the Cron Trigger, POST /worker/drain, extraction_run, an extract tool's wait) is one request to the
// extraction Worker through the service binding. The request names the database to drain, so the extraction
// Worker needs no secrets of its own and always drains the database of the Worker that called it.
import * as z from 'zod';
import type { DrainReport } from './drain.ts';

/** The binding's internal address: never a public hostname, so no public route can reach the handler. */
export const EXTRACTION_ORIGIN = 'https://extraction.internal';
export const DRAIN_PATH = '/drain';

export const drainRequestSchema = z.strictObject({
  database_url: z.string().min(1),
  /** Local development: the Neon WebSocket proxy ("127.0.0.1:PORT") to a local PostgreSQL. */
  neon_ws_proxy: z.string().optional(),
  log_level: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional(),
  worker_id: z.string().min(1).max(200),
  max_jobs: z.int().min(1).max(200).optional(),
  budget_ms: z.int().min(100).max(25_000).optional(),
  /** Only these kinds (extraction_run with a kind, an extract tool waiting on its own jobs). */
  kinds: z.array(z.string()).max(100).optional(),
});

export type DrainRequest = z.infer<typeof drainRequestSchema>;

/** What the MCP Worker's binding offers: `fetch` of a service binding (Fetcher). */
export interface ExtractionBinding {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** One drain by the extraction Worker; throws when it did not answer with a report. */
export async function remoteDrain(binding: ExtractionBinding, request: DrainRequest): Promise<DrainReport> {
  const res = await binding.fetch(`${EXTRACTION_ORIGIN}${DRAIN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (!res.ok)
    throw new Error(`the extraction Worker answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as DrainReport;
}
