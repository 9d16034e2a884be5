// What the MCP surface's prompts and resources read, each through the kernel as the caller (SurfaceReader):
// the prepare_decision message, a case document's page, the case's current text, and the ids a template's
// variables complete to.
import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { liveCase } from '../cases/live.ts';
import type { Envelope } from '../contract/envelope.ts';
import { and, desc, eq, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import type { McpCallState } from './state.ts';
import { completionOf, MAX_COMPLETIONS } from './surface.ts';

export const DOCUMENT_PAGE = 'chambers://cases/{case_id}/documents/{document_id}/pages/{page}';
export const DRAFT = 'chambers://cases/{case_id}/draft';
export const documentPage = new UriTemplate(DOCUMENT_PAGE);
export const draft = new UriTemplate(DRAFT);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const NO_DRAFT = 'אין עדיין טיוטה להחלטה בתיק הזה. (No draft yet.)';

/** A tool read as the caller, and whether the caller holds a (registered) tool. */
export interface SurfaceReader {
  read(state: McpCallState, tool: string, args: Record<string, unknown>): Promise<Envelope>;
  holds(state: McpCallState, tool: string): boolean;
}

export interface CaseItem {
  id: string;
  case_number: string;
  title: string;
  status: string;
  outcome: string | null;
}
interface DocItem {
  id: string;
  title: string;
  status: string;
  page_count: number | null;
}

export async function prepareDecision(r: SurfaceReader, state: McpCallState, number: string) {
  const found = await r.read(state, 'case_list', { text: number, limit: 200 });
  const c = found.ok
    ? (found.data as { items: CaseItem[] }).items.find((i) => i.case_number === number)
    : undefined;
  if (c === undefined)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No live case numbered ${number}`);
  const full = r.holds(state, 'case_get') ? await r.read(state, 'case_get', { case_id: c.id }) : null;
  const info = (full?.ok ? (full.data as { case: Record<string, unknown> }).case : c) as Record<
    string,
    unknown
  >;
  const docs = r.holds(state, 'document_list')
    ? await r.read(state, 'document_list', { case_id: c.id, limit: 50 })
    : null;
  const items = docs?.ok ? (docs.data as { items: DocItem[] }).items : [];
  const line = (label: string, key: string) =>
    typeof info[key] === 'string' && info[key] !== '' ? [`${label}: ${info[key]}`] : [];
  const text = [
    `Prepare the decision (החלטה) of appeal ${c.case_number} — ${c.title}.`,
    '',
    ...line('Appellants (העוררים)', 'appellant'),
    ...line('Respondents (המשיבים)', 'respondent'),
    ...line('Committee', 'committee'),
    ...line('Practice area', 'practice_area'),
    ...line('Property', 'property_address'),
    `Stage: ${c.status}; outcome: ${c.outcome ?? 'not set'}. Case id: ${c.id}.`,
    '',
    items.length === 0
      ? 'The file has no documents yet: ask for the appeal, the responses and the decision appealed against.'
      : `Documents in the file (${items.length}):`,
    ...items.map(
      (d) =>
        `- ${d.title} — ${d.status}${d.page_count === null ? '' : `, ${d.page_count} pages`} (document_id ${d.id}${
          r.holds(state, 'document_text_get') && d.status === 'ready'
            ? `; pages at ${documentPage.expand({ case_id: c.id, document_id: d.id, page: '1' })}…`
            : ''
        })`,
    ),
    '',
    'How the team prepares it: the analyst maps the facts and each party’s claims with their pages; the',
    'researcher finds and verifies the authorities; the writer drafts the decision in the committee’s',
    'structure (background, claims, discussion and decision, conclusion, costs); qa checks every fact and',
    'citation against its source; the ceo coordinates and brings every owner-gated step to the owner, who',
    'decides. Keep to the mission’s contract, cite pages, and never decide the appeal for the committee.',
    ...(r.holds(state, 'draft_get') ? ['', `The current draft: ${draft.expand({ case_id: c.id })}`] : []),
  ].join('\n');
  return { role: 'user' as const, content: { type: 'text' as const, text } };
}

/** The signed final text once taken in (to a caller who may read it), else the draft from its blocks. */
export async function currentText(
  r: SurfaceReader,
  state: McpCallState,
  uri: string,
  caseId: string,
): Promise<string> {
  if (r.holds(state, 'case_final_text_get')) {
    const final = await r.read(state, 'case_final_text_get', { case_id: caseId });
    if (!final.ok) throw new ResourceNotFoundError(uri, final.error.message);
    const text = (final.data as { final_text: string | null }).final_text;
    if (text !== null) return text;
  }
  const got = await r.read(state, 'draft_get', { case_id: caseId, format: 'text' });
  if (!got.ok) throw new ResourceNotFoundError(uri, got.error.message);
  const data = got.data as { text: string; blocks: { placeholder: boolean }[] };
  return data.blocks.every((b) => b.placeholder) ? NO_DRAFT : data.text;
}

export async function readPage(
  r: SurfaceReader,
  state: McpCallState,
  uri: string,
  v: Record<string, string | string[]>,
): Promise<ReadResourceResult> {
  const { case_id: caseId, document_id: documentId, page } = v;
  if (
    !r.holds(state, 'document_text_get') ||
    typeof caseId !== 'string' ||
    typeof documentId !== 'string' ||
    typeof page !== 'string' ||
    !UUID.test(caseId) ||
    !UUID.test(documentId) ||
    !/^[1-9]\d{0,5}$/.test(page)
  ) {
    throw new ResourceNotFoundError(uri);
  }
  // The document must be this live case's (a URI naming another case's document names nothing).
  const [doc] = await state.ctx.db
    .select({ id: documents.id })
    .from(documents)
    .innerJoin(cases, eq(cases.id, documents.caseId))
    .where(and(eq(documents.id, documentId), eq(documents.caseId, caseId), liveCase))
    .limit(1);
  if (doc === undefined) throw new ResourceNotFoundError(uri);
  const n = Number(page);
  const got = await r.read(state, 'document_text_get', { document_id: documentId, from_page: n, to_page: n });
  if (!got.ok) {
    if (got.error.code === 'invalid_state')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, got.error.message);
    throw new ResourceNotFoundError(uri, got.error.message);
  }
  const text = (got.data as { pages: { page: number; text: string }[] }).pages.find(
    (p) => p.page === n,
  )?.text;
  if (text === undefined) throw new ResourceNotFoundError(uri, `The document has no page ${n}`);
  return { contents: [{ uri, mimeType: 'text/plain', text }] };
}

export async function completeVariable(
  r: SurfaceReader,
  state: McpCallState,
  name: string,
  typed: string,
  context: Record<string, string>,
) {
  const db = state.ctx.db;
  const prefix = `${typed.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  if (name === 'case_id') {
    if (!r.holds(state, 'case_list')) return completionOf([], typed);
    const rows = await db
      .select({ id: cases.id })
      .from(cases)
      .where(and(liveCase, sql`${cases.id}::text like ${prefix}`))
      .orderBy(desc(cases.createdAt))
      .limit(MAX_COMPLETIONS + 1);
    return completionOf(
      rows.map((r) => r.id),
      typed,
    );
  }
  const caseId = context.case_id;
  if (name === 'document_id' && caseId !== undefined && UUID.test(caseId)) {
    const rows = await db
      .select({ id: documents.id })
      .from(documents)
      .innerJoin(cases, eq(cases.id, documents.caseId))
      .where(
        and(
          eq(documents.caseId, caseId),
          liveCase,
          eq(documents.status, 'ready'),
          sql`${documents.id}::text like ${prefix}`,
        ),
      )
      .orderBy(documents.createdAt)
      .limit(MAX_COMPLETIONS + 1);
    return completionOf(
      rows.map((r) => r.id),
      typed,
    );
  }
  const documentId = context.document_id;
  if (
    name === 'page' &&
    documentId !== undefined &&
    UUID.test(documentId) &&
    caseId !== undefined &&
    UUID.test(caseId)
  ) {
    const [doc] = await db
      .select({ pages: documents.pageCount })
      .from(documents)
      .innerJoin(cases, eq(cases.id, documents.caseId))
      .where(and(eq(documents.id, documentId), eq(documents.caseId, caseId), liveCase))
      .limit(1);
    const pages = Array.from({ length: Math.min(doc?.pages ?? 0, 10_000) }, (_, i) => String(i + 1));
    return completionOf(pages, typed);
  }
  return completionOf([], typed);
}
