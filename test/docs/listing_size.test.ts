// The bar for what tools/list costs a model: at most 1.5 KB per tool on average over the whole catalogue,
// output schemas included (`npm run size` prints the figures per agent).
import { describe, expect, it } from 'vitest';
import {
  formatSizes,
  MAX_AVERAGE_BYTES_PER_TOOL,
  measureCatalogue,
} from '../../scripts/docs/listing_size.ts';

describe('tools/list size', () => {
  it.each(['approval', 'ack'] as const)(
    `averages at most ${MAX_AVERAGE_BYTES_PER_TOOL} bytes per tool entry (OWNER_GATE=%s)`,
    async (ownerGate) => {
      const sizes = await measureCatalogue({ ownerGate });
      expect(sizes.union.tools).toBeGreaterThan(0);
      expect(
        sizes.union.averageBytesPerTool,
        `tools/list is over the bar; trim descriptions and outputs of the largest entries:\n${formatSizes(sizes, 10)}`,
      ).toBeLessThanOrEqual(MAX_AVERAGE_BYTES_PER_TOOL);
    },
  );

  it('leaves out the tools only the owner calls: no agent’s tools/list shows them', async () => {
    const sizes = await measureCatalogue();
    const names = sizes.entries.map((e) => e.tool);
    expect(names).not.toContain('approval_review');
    expect(names).not.toContain('hai_revoke_session');
    expect(names).toContain('case_delete');
  });

  it('measures each agent’s listing as the union’s entries it is granted', async () => {
    const sizes = await measureCatalogue();
    for (const agent of sizes.perAgent) {
      expect(agent.bytes).toBeLessThanOrEqual(sizes.union.bytes);
      expect(agent.tokens).toBe(Math.round(agent.bytes / 4));
    }
    expect(sizes.entries.map((e) => e.tool).sort()).toHaveLength(sizes.union.tools);
  });
});
