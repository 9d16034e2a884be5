import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { createdAtKeyset, pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, getTableColumns, type SQL } from '../../src/db/orm.ts';
import { documentStatuses, documents } from '../../src/db/schema/documents.ts';
import {
  corpusInput,
  documentSummary,
  documentSummaryOutput,
  liveDocument,
  roleInput,
} from '../../src/documents/views.ts';

const keyset = createdAtKeyset(documents.createdAt, documents.id);

export const document_list = defineTool({
  name: 'document_list',
  title: 'List documents',
  description:
    'Lists the documents of one case (case_id) or of one corpus (style, internal or library), oldest ' +
    'first, with their extraction status and page count. Metadata only: read text with ' +
    'document_text_get, find passages with the search_* tools.',
  input: {
    case_id: z.uuid().optional().describe('This case’s documents'),
    corpus: corpusInput.optional().describe('This corpus ("case" needs case_id)'),
    status: z.enum(documentStatuses).optional().describe('Only this extraction status'),
    role: roleInput.optional(),
  },
  output: pagedOutput(documentSummaryOutput),
  mutates: false,
  pages: keyset.pages,
  async run({ ctx, input, page }) {
    if (input.case_id === undefined && (input.corpus === undefined || input.corpus === 'case')) {
      throw invalidArg('case_id', 'required unless corpus is style, internal or library');
    }
    if (input.case_id !== undefined && input.corpus !== undefined && input.corpus !== 'case') {
      throw invalidArg('corpus', `must be "case" or omitted with case_id, not "${input.corpus}"`);
    }
    const where: (SQL | undefined)[] = [liveDocument];
    if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      where.push(eq(documents.caseId, input.case_id));
    } else if (input.corpus !== undefined) {
      where.push(eq(documents.corpus, input.corpus));
    }
    if (input.status !== undefined) where.push(eq(documents.status, input.status));
    if (input.role !== undefined) where.push(eq(documents.role, input.role));
    if (page.after !== undefined) where.push(keyset.after(page.after));
    const rows = await ctx.db
      .select({ ...getTableColumns(documents), cursorAt: keyset.cursorAt })
      .from(documents)
      .where(and(...where))
      .orderBy(asc(documents.createdAt), asc(documents.id))
      .limit(page.limit + 1);
    return page.from(rows, (r) => [r.cursorAt, r.id] as const, documentSummary);
  },
});
