// The write side shared by document_upload, internal_decision_add and library_add: the content fields,
// the checks that must run before anything is hashed or decoded, and the one transaction that stores the
// document and queues its extraction.

import * as z from 'zod';
import type { ToolContext } from '../contract/define.ts';
import { invalidArg } from '../contract/errors.ts';
import { stableStringify } from '../contract/hash.ts';
import { and, eq } from '../db/orm.ts';
import {
  type DocumentCorpus,
  type DocumentRow,
  documentCorpora,
  documentStatuses,
} from '../db/schema/documents.ts';
import { jobs } from '../db/schema/jobs.ts';
import { DOCUMENT_EXTRACT, enqueueDocumentExtraction } from './extract_job.ts';
import {
  checkBase64Size,
  checkTextSize,
  declaredMediaType,
  decodeBase64Capped,
  MAX_ANY_BYTES,
  MAX_BYTES,
  textBytesCapped,
} from './media.ts';
import { createDocument, type DocumentMetadata } from './pipeline.ts';
import { shownStatus } from './views.ts';

/**
 * Schema bounds far above the size caps: an oversize file must be payload_too_large (checked from its
 * length before it is hashed or decoded), not a schema error. The HTTP body limit is below both anyway.
 * What is advertised (`meta`) is the real cap, in characters: text of 2 MiB UTF-8, the base64 of 20 MiB.
 */
const MAX_BASE64_SCHEMA_CHARS = 64 * 1024 * 1024;
const MAX_TEXT_SCHEMA_CHARS = 16 * 1024 * 1024;
const ADVERTISED_TEXT_CHARS = MAX_BYTES['text/plain'];
const ADVERTISED_BASE64_CHARS = Math.ceil(MAX_ANY_BYTES / 3) * 4;

/** The content fields every upload tool takes: exactly one of text or content_base64. */
export const contentFields = {
  text: z
    .string()
    .min(1)
    .max(MAX_TEXT_SCHEMA_CHARS)
    .meta({ maxLength: ADVERTISED_TEXT_CHARS })
    .optional()
    .describe('The document as UTF-8 text or Markdown (≤ 2 MiB; form feed = new page)'),
  content_base64: z
    .string()
    .min(1)
    .max(MAX_BASE64_SCHEMA_CHARS)
    .meta({ maxLength: ADVERTISED_BASE64_CHARS })
    .optional()
    .describe('Or the file in base64: PDF ≤ 20 MiB, DOCX ≤ 10 MiB, text ≤ 2 MiB'),
  media_type: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('The content type, if known (the bytes decide)'),
  filename: z.string().trim().min(1).max(300).optional().describe('The original file name'),
  title: z.string().trim().min(1).max(300).optional().describe('A short title; defaults to the file name'),
};

export interface ContentInput {
  text?: string | undefined;
  content_base64?: string | undefined;
  media_type?: string | undefined;
  filename?: string | undefined;
  title?: string | undefined;
}

/**
 * The checks that need no I/O, in the order they must run: exactly one content field, then its size from
 * its length (payload_too_large) — before the kernel hashes the arguments or anything is decoded.
 */
export function checkContent(input: ContentInput): void {
  const given = [input.text, input.content_base64].filter((v) => v !== undefined).length;
  if (given !== 1) {
    throw given === 0
      ? invalidArg('(arguments)', 'give text or content_base64')
      : invalidArg('content_base64', 'give text or content_base64, not both');
  }
  if (input.text !== undefined) {
    checkTextSize(input.text);
    return;
  }
  const { wanted } = declaredMediaType(input.media_type);
  checkBase64Size(
    input.content_base64 ?? '',
    wanted === undefined || wanted === 'sniff' ? MAX_ANY_BYTES : MAX_BYTES[wanted],
  );
}

/**
 * C4: the key is the corpus, the case, the other arguments and the content itself (the kernel hashes keys,
 * and the audit row keeps a long key as its digest). The metadata is part of it so that the same bytes with
 * another title are not idempotency_key_reuse but, like any later upload of those bytes, return the first
 * document (the durable layer: corpus, case, SHA-256). The tools run checkContent as their precheck, so an
 * oversize or malformed call is refused before this key exists and anything is hashed.
 */
export function contentKey(
  corpus: DocumentCorpus,
  caseId: string | undefined,
  input: ContentInput & Record<string, unknown>,
): string {
  const { text, content_base64, ...rest } = input;
  const content = text !== undefined ? `text:${text}` : `base64:${content_base64}`;
  return `${corpus}:${caseId ?? '-'}:${stableStringify(rest)}:${content}`;
}

/** The bytes of the upload (the tools' precheck ran checkContent first); invalid_args for bad base64. */
export function contentBytes(input: ContentInput): Uint8Array {
  return input.text !== undefined
    ? textBytesCapped(input.text)
    : decodeBase64Capped(input.content_base64 ?? '');
}

/** What every upload tool returns. */
export const uploadOutput = z.object({
  document: z.object({
    id: z.uuid(),
    corpus: z.enum(documentCorpora),
    case_id: z.uuid().nullable(),
    title: z.string(),
    media_type: z.string().describe('As decided from the bytes'),
    byte_size: z.int(),
    status: z.enum(documentStatuses).describe('pending → extracting → ready | failed'),
    error: z.string().nullable().describe('Why extraction failed, when it did'),
  }),
  created: z
    .boolean()
    .describe('false when these bytes were already stored here: the first document is returned'),
  job_id: z.uuid().nullable().describe('The text-extraction job'),
  next: z.string().describe('What to do next'),
});

export type StoredUpload = z.output<typeof uploadOutput>;

/**
 * In ONE transaction: the document (idempotent on corpus, case and SHA-256 of the bytes) and, only when it
 * is new, its extraction job (dedupe key = document id). After the commit the queue is kicked.
 */
export async function storeUpload(
  ctx: ToolContext,
  o: {
    corpus: DocumentCorpus;
    caseId: string | null;
    input: ContentInput;
    metadata?: Omit<DocumentMetadata, 'title' | 'filename'>;
  },
): Promise<StoredUpload> {
  const bytes = contentBytes(o.input);
  const { row, created, jobId } = await ctx.db.transaction(async (tx) => {
    const made = await createDocument(
      tx,
      {
        ...o.metadata,
        corpus: o.corpus,
        caseId: o.caseId,
        bytes,
        declaredMediaType: o.input.media_type ?? null,
        filename: o.input.filename ?? null,
        title: o.input.title ?? o.input.filename ?? 'מסמך ללא כותרת',
        createdBy: ctx.agent,
      },
      { now: ctx.now },
    );
    const id = made.document.id;
    if (made.created) {
      const job = await enqueueDocumentExtraction(tx, id);
      return { row: made.document, created: true, jobId: job.id as string | null };
    }
    const existing = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, DOCUMENT_EXTRACT), eq(jobs.dedupeKey, id)))
      .limit(1);
    return { row: made.document, created: false, jobId: existing[0]?.id ?? null };
  });
  if (created) ctx.jobs.kick();
  return {
    document: {
      id: row.id,
      corpus: row.corpus,
      case_id: row.caseId,
      title: row.title,
      media_type: row.mediaType,
      byte_size: row.byteSize,
      status: shownStatus(row.status),
      error: row.error,
    },
    created,
    job_id: jobId,
    next: nextStep(ctx, row),
  };
}

/** The next step, naming only tools the caller holds. */
function nextStep(ctx: ToolContext, row: DocumentRow): string {
  if (row.status === 'failed')
    return `Extraction failed: ${row.error ?? 'unknown error'}. Upload a readable copy.`;
  const read = ['document_text_get', searchTool[row.corpus]].filter((t) => ctx.holds(t));
  const reading =
    read.length > 0 ? `read or search it with ${read.join(' / ')}` : 'it can be read and searched';
  if (row.status === 'ready') return `The text is extracted: ${reading}.`;
  const wait = ['extraction_status', 'extraction_run'].filter((t) => ctx.holds(t));
  return (
    'Text extraction runs in the background' +
    (wait.length > 0 ? ` (follow it with ${wait.join(' or ')})` : '') +
    `; once the document is ready, ${reading}.`
  );
}

const searchTool: Record<DocumentCorpus, string> = {
  case: 'search_case',
  style: 'search_style',
  internal: 'search_internal',
  library: 'search_library',
};

/** The envelope message of an upload. */
export const uploadMessage = (u: StoredUpload) =>
  u.created
    ? `Document stored (${u.document.media_type}, ${u.document.byte_size} bytes); extraction queued`
    : `This content was already uploaded; returned the existing document (status ${u.document.status}) ` +
      'with its metadata unchanged (document_update changes it)';
