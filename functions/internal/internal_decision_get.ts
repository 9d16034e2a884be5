import { defineTool } from '../../src/contract/define.ts';
import { getDecisions, getInput, getOutput } from '../../src/precedents/lookup.ts';

export const internal_decision_get = defineTool({
  name: 'internal_decision_get',
  title: 'A committee decision with its metadata and citations',
  description:
    'One of the committee’s decisions by id or by number(s) in any written form (up to 20): each metadata ' +
    'field with its source (given or extracted, and where), text status, citation counts, and later ' +
    'documents that overrule or criticise it.',
  input: getInput,
  output: getOutput,
  mutates: false,
  run: ({ ctx, input }) => getDecisions(ctx, 'internal', input),
});
