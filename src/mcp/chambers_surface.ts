// The production MCP surface beyond tools (src/mcp/surface.ts). Everything it reads goes through the same
// tools and kernel as a tool call (grant, reachability), so a caller sees a prompt or resource only when it
// holds the tool that reads it:
// - prompts: each agent's instructions (`<agent>_instructions`), and `prepare_decision` for one case, its
//   `case_number` completed from the live cases (case_list);
// - resources: a case document's text by page (document_text_get) and the case's current draft
//   (case_final_text_get until the drafting family lands: the final decision text once it is taken in, else
//   "no draft yet"), as templates whose ids complete.

import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  UriTemplate,
} from '@modelcontextprotocol/server';
import type { AgentRegistry } from '../agents/grants.ts';
import { liveCase } from '../cases/live.ts';
import type { Envelope } from '../contract/envelope.ts';
import type { Registry } from '../contract/registry.ts';
import { and, desc, eq, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import { callAs, type McpCallState } from './state.ts';
import { completionOf, MAX_COMPLETIONS, type McpSurface } from './surface.ts';

const DOCUMENT_PAGE = 'chambers://cases/{case_id}/documents/{document_id}/pages/{page}';
const DRAFT = 'chambers://cases/{case_id}/draft';
const documentPage = new UriTemplate(DOCUMENT_PAGE);
const draft = new UriTemplate(DRAFT);

/** The tool that reads each template: a caller sees (and reads) the template only if it holds that tool. */
const templates = [
  {
    uriTemplate: DOCUMENT_PAGE,
    name: 'case_document_page',
    title: 'A case document’s page',
    description: 'The extracted text of one page of a case document (as document_text_get returns it).',
    mimeType: 'text/plain',
    readTool: 'document_text_get',
  },
  {
    uriTemplate: DRAFT,
    name: 'case_draft',
    title: 'The case’s current draft',
    description:
      'The current text of the case’s decision: the final text once it is taken in; until the drafting tools exist, "no draft yet" before that.',
    mimeType: 'text/plain',
    readTool: 'case_final_text_get',
  },
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const NO_DRAFT = 'אין עדיין טיוטה להחלטה בתיק הזה. (No draft yet.)';

export function chambersSurface(o: {
  registry: Registry;
  agents: AgentRegistry;
  checkOutputs?: boolean;
}): McpSurface {
  /** A read through the kernel as the caller; tools the caller does not hold are refused there. */
  const read = (state: McpCallState, tool: string, args: Record<string, unknown>): Promise<Envelope> => {
    const registered = o.registry.get(tool);
    if (registered === undefined) return Promise.resolve(notRegistered(tool));
    return callAs(state, registered, args, { checkOutputs: o.checkOutputs });
  };
  const holds = (state: McpCallState, tool: string) =>
    state.grants.has(tool) && o.registry.get(tool) !== undefined;

  const agentPrompts = [...o.agents.values()].map((a) => ({
    name: `${a.name}_instructions`,
    title: `The ${a.name} agent’s instructions`,
    description: a.description,
    text: a.instructions,
  }));

  return {
    listPrompts(state) {
      return [
        ...agentPrompts.map(({ text: _, ...p }) => p),
        ...(holds(state, 'case_list')
          ? [
              {
                name: 'prepare_decision',
                title: 'Prepare the decision of one case',
                description:
                  'The case, its documents and the team’s plan for preparing its decision, as the first message of a session.',
                arguments: [
                  {
                    name: 'case_number',
                    description: 'The committee’s case number (completes)',
                    required: true,
                  },
                ],
              },
            ]
          : []),
      ];
    },

    async getPrompt(state, name, args) {
      const agent = agentPrompts.find((p) => p.name === name);
      if (agent !== undefined) {
        return {
          description: agent.description,
          messages: [{ role: 'user', content: { type: 'text', text: agent.text } }],
        };
      }
      if (name !== 'prepare_decision' || !holds(state, 'case_list')) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No prompt named ${name}`);
      }
      const number = args.case_number?.trim() ?? '';
      if (number === '') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'case_number is required');
      return {
        description: `Prepare the decision of ${number}`,
        messages: [await prepareDecision(state, number)],
      };
    },

    async listResources(state) {
      if (!holds(state, 'case_final_text_get') || !holds(state, 'case_list')) return [];
      const listed = await read(state, 'case_list', { limit: 50 });
      const items = listed.ok ? ((listed.data as { items: CaseItem[] }).items ?? []) : [];
      return items.map((c) => ({
        uri: draft.expand({ case_id: c.id }),
        name: c.case_number,
        title: `טיוטת ההחלטה — ${c.case_number}`,
        description: c.title,
        mimeType: 'text/plain',
      }));
    },

    listResourceTemplates(state) {
      return templates.filter((t) => holds(state, t.readTool)).map(({ readTool: _, ...t }) => t);
    },

    async readResource(state, uri) {
      const page = documentPage.match(uri);
      if (page !== null) return readPage(state, uri, page);
      const d = draft.match(uri);
      if (
        d !== null &&
        holds(state, 'case_final_text_get') &&
        typeof d.case_id === 'string' &&
        UUID.test(d.case_id)
      ) {
        const got = await read(state, 'case_final_text_get', { case_id: d.case_id });
        if (!got.ok) throw new ResourceNotFoundError(uri, got.error.message);
        const text = (got.data as { final_text: string | null }).final_text;
        return { contents: [{ uri, mimeType: 'text/plain', text: text ?? NO_DRAFT }] };
      }
      throw new ResourceNotFoundError(uri);
    },

    async complete(state, { ref, argument, context }) {
      const typed = argument.value;
      if (ref.type === 'ref/prompt') {
        if (
          ref.name !== 'prepare_decision' ||
          argument.name !== 'case_number' ||
          !holds(state, 'case_list')
        ) {
          return completionOf([], typed);
        }
        const listed = await read(state, 'case_list', {
          ...(typed.trim() === '' ? {} : { text: typed.trim() }),
          limit: MAX_COMPLETIONS,
        });
        const items = listed.ok ? (listed.data as { items: CaseItem[] }).items : [];
        // case_list matches anywhere in the number or title: every number it found is a completion.
        return completionOf(
          items.map((c) => c.case_number),
          '',
        );
      }
      const template = templates.find((t) => t.uriTemplate === ref.uri);
      if (template === undefined || !holds(state, template.readTool)) return completionOf([], typed);
      return completeVariable(state, argument.name, typed, context ?? {});
    },
  };

  async function prepareDecision(state: McpCallState, number: string) {
    const found = await read(state, 'case_list', { text: number, limit: 200 });
    const c = found.ok
      ? (found.data as { items: CaseItem[] }).items.find((i) => i.case_number === number)
      : undefined;
    if (c === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No live case numbered ${number}`);
    const full = holds(state, 'case_get') ? await read(state, 'case_get', { case_id: c.id }) : null;
    const info = (full?.ok ? (full.data as { case: Record<string, unknown> }).case : c) as Record<
      string,
      unknown
    >;
    const docs = holds(state, 'document_list')
      ? await read(state, 'document_list', { case_id: c.id, limit: 50 })
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
            holds(state, 'document_text_get') && d.status === 'ready'
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
      ...(holds(state, 'case_final_text_get')
        ? ['', `The current draft: ${draft.expand({ case_id: c.id })}`]
        : []),
    ].join('\n');
    return { role: 'user' as const, content: { type: 'text' as const, text } };
  }

  async function readPage(
    state: McpCallState,
    uri: string,
    v: Record<string, string | string[]>,
  ): Promise<ReadResourceResult> {
    const { case_id: caseId, document_id: documentId, page } = v;
    if (
      !holds(state, 'document_text_get') ||
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
    const got = await read(state, 'document_text_get', { document_id: documentId, from_page: n, to_page: n });
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

  async function completeVariable(
    state: McpCallState,
    name: string,
    typed: string,
    context: Record<string, string>,
  ) {
    const db = state.ctx.db;
    const prefix = `${typed.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    if (name === 'case_id') {
      if (!holds(state, 'case_list')) return completionOf([], typed);
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
}

interface CaseItem {
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

const notRegistered = (tool: string): Envelope => ({
  ok: false,
  status: 'error',
  error: { code: 'not_found', message: `${tool} is not registered` },
  message: `${tool} is not registered`,
});
