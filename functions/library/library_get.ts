import { defineTool } from '../../src/contract/define.ts';
import { getDecisions, getInput, getOutput } from '../../src/precedents/lookup.ts';

export const library_get = defineTool({
  name: 'library_get',
  title: 'A ruling with its metadata and citations',
  description:
    'A library ruling by id or number(s) in any form: each metadata field with its source, citation ' +
    'counts, its approved holdings, and later documents that overrule or criticise it.',
  input: getInput,
  output: getOutput,
  mutates: false,
  run: ({ ctx, input }) => getDecisions(ctx, 'library', input),
});
