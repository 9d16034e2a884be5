import { defineTool } from '../../src/contract/define.ts';
import { getDecisions, getInput, getOutput } from '../../src/precedents/lookup.ts';

export const internal_decision_get = defineTool({
  name: 'internal_decision_get',
  title: 'A committee decision with its metadata and citations',
  description:
    'A committee decision by id or number(s) in any form: each metadata field with its source, ' +
    'citation counts, its approved holdings, and later documents that overrule or criticise it.',
  input: getInput,
  output: getOutput,
  mutates: false,
  run: ({ ctx, input }) => getDecisions(ctx, 'internal', input),
});
