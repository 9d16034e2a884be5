import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { loadLiveCase } from '../../src/domain/cases.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { hitDescription, queryInput, runSearch, searchOutput, searchPages } from './_shared.ts';

export const search_case = defineTool({
  name: 'search_case',
  title: 'Search one case’s documents',
  description:
    'Full-text search in the documents of ONE case file (the appeal, responses, appraisals, protocols ' +
    'uploaded to it). For the committee’s own past decisions use search_internal, for court rulings ' +
    `search_library, for the chair’s style examples search_style. ${hitDescription}`,
  input: {
    case_id: z.uuid().describe('The case whose documents to search'),
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
