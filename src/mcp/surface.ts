// MCP beyond tools: prompts, resources (and resource templates) and argument completion, for clients that
// use them. The binding (binding.ts) serves whatever surface it is given, per caller; the production surface
// is chambers_surface.ts, and the conformance profile passes one of fixtures.
import type {
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import type { McpCallState } from './state.ts';

/** What `completion/complete` names: a prompt's argument or a resource template's variable. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** Arguments the client already resolved (a template's other variables). */
  context?: Record<string, string>;
}

export interface McpSurface {
  listPrompts(state: McpCallState): Prompt[];
  /** Throws ProtocolError(InvalidParams) for a prompt the caller does not see or bad arguments. */
  getPrompt(state: McpCallState, name: string, args: Record<string, string>): Promise<GetPromptResult>;
  listResources(state: McpCallState): Promise<Resource[]>;
  listResourceTemplates(state: McpCallState): ResourceTemplate[];
  /** Throws ResourceNotFoundError for what does not exist or the caller may not read. */
  readResource(state: McpCallState, uri: string): Promise<ReadResourceResult>;
  complete(state: McpCallState, request: CompletionRequest): Promise<CompleteResult['completion']>;
}

/** Completion answers at most this many values (the protocol's cap). */
export const MAX_COMPLETIONS = 100;

/** A completion answer from candidate values: those that start with what was typed, capped. */
export function completionOf(values: readonly string[], typed: string): CompleteResult['completion'] {
  const matches = values.filter((v) => v.startsWith(typed));
  return {
    values: matches.slice(0, MAX_COMPLETIONS),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETIONS,
  };
}
