import { and, asc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { clampLimit, createdAtKeyset, decodeCursor, pageInput, toPage } from '../../src/contract/limits.ts';
import { documentStatuses, documents } from '../../src/db/schema/documents.ts';
import { loadLiveCase } from '../../src/domain/cases.ts';
import { corpusInput, documentView } from '../../src/domain/documents.ts';

const keyset = createdAtKeyset(documents.createdAt, documents.id);

export const document_list = defineTool({
  name: 'document_list',
  title: 'List documents',
  description:
    'Lists the documents of one case (give case_id) or of one corpus (give corpus: style, internal or ' +
    'library), oldest first, with their extraction status (pending, extracting, ready, failed with the error) ' +
    'and page count. Metadata only: read a document’s text with document_text_get, find passages with the ' +
    'search_* tools. Paged with limit and cursor; status "empty" when there are none.',
  input: {
    case_id: z.uuid().optional().describe('List this case’s documents (corpus "case")'),
    corpus: corpusInput.optional().describe('List this corpus; "case" needs case_id as well'),
    status: z.enum(documentStatuses).optional().describe('Only documents in this extraction status'),
    ...pageInput,
  },
  mutates: false,
  async run({ ctx, input }) {
    const limit = clampLimit(input.limit);
    const after = decodeCursor('document_list', input.cursor, keyset.isKey);
    if (input.case_id === undefined && (input.corpus === undefined || input.corpus === 'case')) {
      throw new ToolError(
        'invalid_args',
        'Give case_id (a case’s documents) or corpus style, internal or library',
        {
          details: {
            issues: [{ path: 'case_id', message: 'required unless corpus is style, internal or library' }],
          },
        },
      );
    }
    if (input.case_id !== undefined && input.corpus !== undefined && input.corpus !== 'case') {
      throw new ToolError('invalid_args', `case_id lists corpus "case", not "${input.corpus}"`, {
        details: { issues: [{ path: 'corpus', message: 'must be "case" or omitted with case_id' }] },
      });
    }
    const where: (SQL | undefined)[] = [];
    if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      where.push(eq(documents.caseId, input.case_id));
    } else if (input.corpus !== undefined) {
      where.push(eq(documents.corpus, input.corpus));
    }
    if (input.status !== undefined) where.push(eq(documents.status, input.status));
    if (after !== undefined) where.push(keyset.after(after));
    const rows = await ctx.db
      .select({ ...getTableColumns(documents), cursorAt: keyset.cursorAt })
      .from(documents)
      .where(and(...where))
      .orderBy(asc(documents.createdAt), asc(documents.id))
      .limit(limit + 1);
    const page = toPage('document_list', rows, limit, (r) => [r.cursorAt, r.id], documentView);
    return page.items.length === 0
      ? empty(page, 'No documents')
      : ok(page, `${page.items.length} document(s)${page.next_cursor ? '; more on the next page' : ''}`);
  },
});
