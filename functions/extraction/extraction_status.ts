import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { and, desc, eq, isNotNull, type SQL, sql } from '../../src/db/orm.ts';
import { documentPages, documentStatuses } from '../../src/db/schema/documents.ts';
import { jobs } from '../../src/db/schema/jobs.ts';
import { documentSubject } from '../../src/documents/extract_job.ts';
import { MAX_PAGES } from '../../src/documents/media.ts';
import { loadDocument, shownStatus } from '../../src/documents/views.ts';
import { jobKindInput, MAX_KINDS } from '../../src/jobs/views.ts';

/** A subject has a handful of jobs (one per kind of work); more than this is cut, newest first. */
const SUBJECT_JOBS_CAP = 50;

const count = (where: SQL) => sql<number>`(count(*) filter (where ${where}))::int`;

const statusOutput = z.object({
  kinds: z
    .array(
      z.object({
        kind: z.string(),
        pending: z.int(),
        running: z.int(),
        failed: z.int().describe('An attempt failed; a retry is scheduled'),
        dead: z.int().describe('Gave up; the error is kept'),
        succeeded: z.int(),
        oldest_pending_age_ms: z.int().nullable().describe('Age of the oldest job still waiting'),
      }),
    )
    .max(MAX_KINDS),
  handled_kinds: z.array(z.string()).max(MAX_KINDS).describe('The kinds this server runs'),
  document: z
    .object({
      id: z.uuid(),
      status: z.enum(documentStatuses),
      error: z.string().nullable(),
      page_count: z.int().nullable(),
      ocr: z
        .object({
          pages: z.int().describe('Pages read by OCR (a scan, or a garbage text layer)'),
          read: z.int(),
          unreadable: z.array(z.int()).max(MAX_PAGES).describe('Pages OCR could not read, 1-based'),
          pending: z.int().describe('Pages still waiting for OCR: one document_ocr_page job each'),
        })
        .optional()
        .describe('When some pages are read by OCR: the progress, page by page'),
    })
    .optional()
    .describe('With document_id: the document’s own state'),
  subject: z.string().optional(),
  jobs: z
    .array(
      z.object({
        id: z.uuid(),
        kind: z.string(),
        state: z.string().describe('pending, running, failed (retry scheduled), dead or succeeded'),
        attempt: z.int(),
        max_attempts: z.int(),
        last_error: z.string().nullable(),
        run_at: z.iso.datetime(),
        created_at: z.iso.datetime(),
        updated_at: z.iso.datetime(),
        finished_at: z.iso.datetime().nullable(),
      }),
    )
    .max(SUBJECT_JOBS_CAP)
    .optional()
    .describe('With document_id or subject: its jobs, newest first'),
  truncated: z.boolean().optional().describe('More jobs exist than are shown'),
});

export const extraction_status = defineTool({
  name: 'extraction_status',
  title: 'Background work status',
  description:
    'Shows the background queue (text extraction, indexing, rule-based extraction): per job kind the ' +
    'jobs pending, running, failed (retry due), dead (error kept) and succeeded, and the oldest wait. ' +
    'With document_id: its status and jobs with attempts and last error. extraction_run drains now.',
  input: {
    kind: jobKindInput.optional(),
    document_id: z.uuid().optional().describe('Show this document’s state and jobs'),
    subject: z.string().trim().min(1).max(200).optional().describe('A job subject, e.g. "document:<uuid>"'),
  },
  output: statusOutput,
  mutates: false,
  async run({ ctx, input }) {
    if (input.document_id !== undefined && input.subject !== undefined) {
      throw invalidArg('subject', 'give document_id or subject, not both');
    }
    // The document's own state answers "is my upload readable yet?" even when its jobs are long gone.
    const document =
      input.document_id === undefined ? undefined : await loadDocument(ctx.db, input.document_id);
    const subject = input.document_id !== undefined ? documentSubject(input.document_id) : input.subject;
    const where = and(
      input.kind === undefined ? undefined : eq(jobs.kind, input.kind),
      subject === undefined ? undefined : eq(jobs.subject, subject),
    );
    const waiting = sql`${jobs.state} = 'pending'`;
    const rows = await ctx.db
      .select({
        kind: jobs.kind,
        pending: count(sql`${waiting} and ${jobs.lastError} is null`),
        failed: count(sql`${waiting} and ${jobs.lastError} is not null`),
        running: count(sql`${jobs.state} = 'running'`),
        dead: count(sql`${jobs.state} = 'dead'`),
        succeeded: count(sql`${jobs.state} = 'succeeded'`),
        oldestWaitingMs: sql<
          number | null
        >`(extract(epoch from (now() - min(${jobs.createdAt}) filter (where ${waiting}))) * 1000)::float8`,
      })
      .from(jobs)
      .where(where)
      .groupBy(jobs.kind)
      .orderBy(jobs.kind)
      .limit(MAX_KINDS);
    const kinds = rows.map((r) => ({
      kind: r.kind,
      pending: r.pending,
      running: r.running,
      failed: r.failed,
      dead: r.dead,
      succeeded: r.succeeded,
      oldest_pending_age_ms:
        r.oldestWaitingMs === null ? null : Math.max(0, Math.round(Number(r.oldestWaitingMs))),
    }));
    const data: z.output<typeof statusOutput> = { kinds, handled_kinds: [...ctx.jobs.kinds] };
    if (document !== undefined) {
      data.document = {
        id: document.id,
        status: shownStatus(document.status),
        error: document.error,
        page_count: document.pageCount,
      };
      const [ocr] = await ctx.db
        .select({
          pages: sql<number>`count(*)::int`,
          read: count(sql`${documentPages.ocrState} = 'read'`),
          pending: count(sql`${documentPages.ocrState} = 'pending'`),
          unreadable: sql<
            number[] | null
          >`array_agg(${documentPages.page} order by ${documentPages.page}) filter (where ${documentPages.ocrState} = 'unreadable')`,
        })
        .from(documentPages)
        .where(and(eq(documentPages.documentId, document.id), isNotNull(documentPages.ocrState)));
      if (ocr !== undefined && ocr.pages > 0) {
        data.document.ocr = {
          pages: ocr.pages,
          read: ocr.read,
          pending: ocr.pending,
          unreadable: (ocr.unreadable ?? []).map(Number),
        };
      }
    }
    if (subject !== undefined) {
      const list = await ctx.db
        .select()
        .from(jobs)
        .where(where)
        .orderBy(desc(jobs.createdAt), desc(jobs.id))
        .limit(SUBJECT_JOBS_CAP + 1);
      data.subject = subject;
      data.jobs = list.slice(0, SUBJECT_JOBS_CAP).map((j) => ({
        id: j.id,
        kind: j.kind,
        state: j.state === 'pending' && j.lastError !== null ? 'failed' : j.state,
        attempt: j.attempt,
        max_attempts: j.maxAttempts,
        last_error: j.lastError,
        run_at: j.runAt.toISOString(),
        created_at: j.createdAt.toISOString(),
        updated_at: j.updatedAt.toISOString(),
        finished_at: j.finishedAt?.toISOString() ?? null,
      }));
      data.truncated = list.length > SUBJECT_JOBS_CAP;
    }
    const docNote = document === undefined ? '' : `; document ${document.status}`;
    if (kinds.length === 0) {
      return empty(
        data,
        (subject === undefined ? 'No background jobs' : `No background jobs for ${subject}`) + docNote,
      );
    }
    const sum = (k: 'pending' | 'running' | 'failed' | 'dead') => kinds.reduce((n, r) => n + r[k], 0);
    return ok(
      data,
      `${sum('pending')} pending, ${sum('running')} running, ${sum('failed')} failed, ${sum('dead')} dead` +
        (subject === undefined ? '' : ` for ${subject}`) +
        docNote,
    );
  },
});
