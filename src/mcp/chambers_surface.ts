// The production MCP surface beyond tools (src/mcp/surface.ts). Everything it reads goes through the same
// tools and kernel as a tool call (grant, reachability), so a caller sees a prompt or resource only when it
// holds the tool that reads it:
// - prompts: each agent's instructions (`<agent>_instructions`), and `prepare_decision` for one case, its
//   `case_number` completed from the live cases (case_list);
// - resources: a case document's text by page (document_text_get) and the case's current draft (draft_get:
//   the decision assembled from its blocks; once the signed final version is taken in, its text for a caller
//   holding case_final_text_get), as templates whose ids complete.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { AgentRegistry } from '../agents/grants.ts';
import type { Envelope } from '../contract/envelope.ts';
import type { Registry } from '../contract/registry.ts';
import { callAs, type McpCallState } from './state.ts';
import { completionOf, MAX_COMPLETIONS, type McpSurface } from './surface.ts';
import {
  type CaseItem,
  completeVariable,
  currentText,
  DOCUMENT_PAGE,
  DRAFT,
  documentPage,
  draft,
  prepareDecision,
  readPage,
  type SurfaceReader,
  UUID,
} from './surface_reads.ts';

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
      'The current text of the case’s decision: the draft assembled from its blocks (as draft_get returns it, as text), or the final text once the signed version is taken in; "no draft yet" before any block is written.',
    mimeType: 'text/plain',
    readTool: 'draft_get',
  },
] as const;

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
  const reader: SurfaceReader = { read, holds };

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
        messages: [await prepareDecision(reader, state, number)],
      };
    },

    async listResources(state) {
      if (!holds(state, 'draft_get') || !holds(state, 'case_list')) return [];
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
      if (page !== null) return readPage(reader, state, uri, page);
      const d = draft.match(uri);
      if (d !== null && holds(state, 'draft_get') && typeof d.case_id === 'string' && UUID.test(d.case_id)) {
        return {
          contents: [{ uri, mimeType: 'text/plain', text: await currentText(reader, state, uri, d.case_id) }],
        };
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
      return completeVariable(reader, state, argument.name, typed, context ?? {});
    },
  };
}

const notRegistered = (tool: string): Envelope => ({
  ok: false,
  status: 'error',
  error: { code: 'not_found', message: `${tool} is not registered` },
  message: `${tool} is not registered`,
});
