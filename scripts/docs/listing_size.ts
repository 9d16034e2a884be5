// `npm run size`: how many bytes (and roughly how many tokens) each agent's tools/list costs a model before
// it has done anything, and the average per tool over the whole catalogue. The bar is an average of at most
// 1.5 KB per tool entry, outputs included; test/docs/listing_size.test.ts holds the catalogue to it.
// bench/ can import measureListings to report the same figures.
import { pathToFileURL } from 'node:url';
import { toolList } from '../../functions/index.ts';
import type { AgentRegistry } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import type { AnyTool } from '../../src/contract/define.ts';
import type { OwnerGateMode } from '../../src/contract/gates.ts';
import { buildRegistry, type Registry } from '../../src/contract/registry.ts';
import { agentOrder, root } from './docs.ts';

/** The bar: the average bytes of one tool entry in the union of all listings. */
export const MAX_AVERAGE_BYTES_PER_TOOL = 1536;

/** A rough token estimate: bytes ÷ 4 (a common rule of thumb for JSON; Hebrew text costs more). */
export const estimateTokens = (bytes: number): number => Math.round(bytes / 4);

const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

export interface ListingSize {
  tools: number;
  /** UTF-8 bytes of JSON.stringify({ tools: [...] }), the tools/list result. */
  bytes: number;
  tokens: number;
}

export interface ListingSizes {
  perAgent: (ListingSize & { agent: string })[];
  union: ListingSize & { averageBytesPerTool: number };
  /** Every tool entry's own bytes, largest first. */
  entries: { tool: string; bytes: number }[];
  /** Where the union's bytes go: the JSON bytes of each listing part, summed over all tools. */
  parts: { description: number; inputSchema: number; outputSchema: number; other: number };
}

/**
 * Measures tools/list per agent (its granted tools, in registry order) and for the union of all tools. Tools
 * only the owner calls (the console's) are left out: no agent is ever granted them, so no tools/list shows them.
 */
export function measureListings(full: Pick<Registry, 'tools'>, agents: AgentRegistry): ListingSizes {
  const registry = { tools: full.tools.filter((t) => t.def.ownerOnly !== true) };
  const size = (listings: readonly unknown[]): ListingSize => {
    const bytes = utf8Bytes(JSON.stringify({ tools: listings }));
    return { tools: listings.length, bytes, tokens: estimateTokens(bytes) };
  };
  const perAgent = agentOrder(agents).map((agent) => {
    const granted = new Set(agents.get(agent)?.tools ?? []);
    return { agent, ...size(registry.tools.filter((t) => granted.has(t.def.name)).map((t) => t.listing)) };
  });
  const all = size(registry.tools.map((t) => t.listing));
  const entries = registry.tools
    .map((t) => ({ tool: t.def.name, bytes: utf8Bytes(JSON.stringify(t.listing)) }))
    .sort((a, b) => b.bytes - a.bytes || (a.tool < b.tool ? -1 : 1));
  const parts = { description: 0, inputSchema: 0, outputSchema: 0, other: 0 };
  for (const { listing } of registry.tools) {
    const whole = utf8Bytes(JSON.stringify(listing));
    const description = utf8Bytes(JSON.stringify(listing.description));
    const input = utf8Bytes(JSON.stringify(listing.inputSchema));
    const output = utf8Bytes(JSON.stringify(listing.outputSchema));
    parts.description += description;
    parts.inputSchema += input;
    parts.outputSchema += output;
    parts.other += whole - description - input - output;
  }
  return {
    perAgent,
    union: { ...all, averageBytesPerTool: all.tools === 0 ? 0 : Math.round(all.bytes / all.tools) },
    entries,
    parts,
  };
}

/** The report `npm run size` prints. */
export function formatSizes(sizes: ListingSizes, largest = 5): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const row = (name: string, s: ListingSize) =>
    `  ${name.padEnd(12)} ${String(s.tools).padStart(3)} tools  ${String(s.bytes).padStart(7)} bytes (${kb(s.bytes).padStart(8)})  ~${String(s.tokens).padStart(6)} tokens`;
  const { union } = sizes;
  const per = (bytes: number) => (union.tools === 0 ? 0 : Math.round(bytes / union.tools));
  const verdict =
    union.averageBytesPerTool <= MAX_AVERAGE_BYTES_PER_TOOL
      ? 'within'
      : `OVER (by ${union.averageBytesPerTool - MAX_AVERAGE_BYTES_PER_TOOL} bytes)`;
  return [
    'tools/list size per agent (UTF-8 bytes of the JSON result; tokens estimated as bytes ÷ 4):',
    ...sizes.perAgent.map((s) => row(s.agent, s)),
    row('all tools', union),
    `  average per tool entry: ${union.averageBytesPerTool} bytes — ${verdict} the bar of ${MAX_AVERAGE_BYTES_PER_TOOL} bytes (1.5 KB)`,
    `  per tool on average: description ${per(sizes.parts.description)}, inputSchema ${per(sizes.parts.inputSchema)}, outputSchema ${per(sizes.parts.outputSchema)}, the rest ${per(sizes.parts.other)} bytes`,
    `  largest entries: ${sizes.entries
      .slice(0, largest)
      .map((e) => `${e.tool} ${e.bytes}`)
      .join(', ')}`,
  ].join('\n');
}

/** The figures for the real catalogue and agents/*.md. */
export async function measureCatalogue(
  options: { tools?: readonly AnyTool[]; agents?: AgentRegistry; ownerGate?: OwnerGateMode } = {},
): Promise<ListingSizes> {
  const agents = options.agents ?? (await loadAgentsFromDir(`${root}agents`));
  const registry = buildRegistry(options.tools ?? toolList, { ownerGate: options.ownerGate ?? 'approval' });
  return measureListings(registry, agents);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Gated tools advertise other gate parameters per OWNER_GATE: the report is approval mode's (the default of
  // every deployment), and the bar holds in both.
  console.log(formatSizes(await measureCatalogue()));
  const ack = await measureCatalogue({ ownerGate: 'ack' });
  console.log(`  with OWNER_GATE=ack: ${ack.union.averageBytesPerTool} bytes per tool entry on average`);
}
