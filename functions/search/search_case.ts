import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import {
  hitDescription,
  queryInput,
  runSearch,
  searchOutput,
  searchPages,
} from '../../src/search/search_tool.ts';

export const search_case = defineTool({
  name: 'search_case',
  title: 'Search one case’s documents',
  description:
    'Word search in the documents of ONE case (appeal, responses, appraisals, protocols). The ' +
    'committee’s past decisions are search_internal, court rulings search_library, the chair’s style ' +
    `examples search_style. ${hitDescription}`,
  input: {
    case_id: z.uuid().describe('The case to search'),
    query: queryInput,
  },
  output: searchOutput.plain,
  mutates: false,
  pages: searchPages,
  async run({ ctx, input, page }) {
    await loadLiveCase(ctx.db, input.case_id);
    return runSearch(
      ctx,
      page,
      { corpus: 'case', caseId: input.case_id },
      analyzeQuery(input.query),
      () => ({}),
    );
  },
});
