import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, eq, isNull } from '../../src/db/orm.ts';
import { casePrecedents } from '../../src/db/schema/holdings.ts';
import { MAX_PAGES } from '../../src/documents/media.ts';
import { loadDocument, readyPage, requireReady } from '../../src/documents/views.ts';
import { citationKey } from '../../src/legal/proceedings.ts';
import {
  precedentOutput,
  precedentView,
  quoteKey,
  sectionKey,
} from '../../src/precedents/case_precedents.ts';
import { resolveKeys } from '../../src/precedents/resolve.ts';

export const precedent_attach = defineTool({
  name: 'precedent_attach',
  title: 'Pin a precedent to a case',
  description:
    'Pins a quote from a ruling or a committee decision to a section of a case’s decision (background, ' +
    'claims, discussion, outcome… or free text). With document_id and page the quote is checked against ' +
    'that page. Attaching the same quote again returns the first.',
  input: {
    case_id: caseIdInput,
    section: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('The section of the decision: background, claims, discussion, outcome…'),
    citation: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe('The ruling or decision as cited, e.g. עע"מ 9001/19 פלוני נ\' הוועדה'),
    quote: z.string().trim().min(1).max(4000).describe('The words quoted'),
    document_id: z.uuid().optional().describe('The library or internal document quoted'),
    page: z.int().min(1).max(MAX_PAGES).optional().describe('Its page holding the quote (with document_id)'),
  },
  output: z.object({
    precedent: precedentOutput,
    created: z.boolean().describe('false when this quote was already pinned there: the first is returned'),
  }),
  mutates: 'write',
  // The durable key answers every repeat (created false): a stored answer could describe a precedent detached
  // since, and a repeat in another spelling of the citation or the quote is the same operation.
  setSemantics: true,
  precheck(input) {
    if (input.page !== undefined && input.document_id === undefined) {
      throw invalidArg('page', 'needs document_id', 'Name the document the page belongs to.');
    }
  },
  idempotencyKey: {
    describe:
      'case_id + section + the citation’s proceeding + the quote (whitespace and quote marks normalised)',
    of: (i) => `${i.case_id}:${sectionKey(i.section)}:${citationKey(i.citation)}:${quoteKey(i.quote)}`,
  },
  async run({ ctx, input }) {
    const kase = await loadLiveCase(ctx.db, input.case_id);
    if (input.document_id !== undefined) {
      const doc = await loadDocument(ctx.db, input.document_id);
      if (doc.corpus !== 'library' && doc.corpus !== 'internal') {
        throw invalidArg(
          'document_id',
          `a precedent quotes a library or internal document; this is a ${doc.corpus} document`,
        );
      }
      if (input.page !== undefined) {
        requireReady(doc, 'Attach without page, or wait until the document is ready.');
        const page = await readyPage(ctx.db, doc, input.page);
        if (!quoteKey(page).includes(quoteKey(input.quote))) {
          throw invalidArg(
            'quote',
            `not found on page ${input.page}`,
            'Copy the words exactly as document_text_get shows them.',
          );
        }
      }
    }
    const key = {
      sectionKey: sectionKey(input.section),
      citationKey: citationKey(input.citation),
      quoteKey: quoteKey(input.quote),
    };
    const { row: existing, written } = await writtenOrExisting(
      ctx.db
        .insert(casePrecedents)
        .values({
          id: crypto.randomUUID(),
          caseId: kase.id,
          section: input.section,
          citation: input.citation,
          quote: input.quote,
          documentId: input.document_id ?? null,
          page: input.page ?? null,
          createdBy: ctx.agent,
          createdAt: ctx.now(),
          ...key,
        })
        .onConflictDoNothing()
        .returning(),
      () =>
        ctx.db
          .select()
          .from(casePrecedents)
          .where(
            and(
              eq(casePrecedents.caseId, kase.id),
              eq(casePrecedents.sectionKey, key.sectionKey),
              eq(casePrecedents.citationKey, key.citationKey),
              eq(casePrecedents.quoteKey, key.quoteKey),
              isNull(casePrecedents.detachedAt),
            ),
          ),
      'the live precedent',
    );
    const cited = await resolveKeys(ctx.db, [key.citationKey]);
    if (written) {
      return ok(
        { precedent: precedentView(existing, kase.caseNumber, cited), created: true },
        'Precedent attached',
      );
    }
    const different = (
      [
        ['document_id', existing.documentId !== (input.document_id ?? null)],
        ['page', existing.page !== (input.page ?? null)],
      ] as const
    )
      .filter(([, d]) => d)
      .map(([f]) => f);
    if (different.length > 0) {
      throw new ToolError(
        'idempotency_key_reuse',
        `This quote is already pinned to the section with other details (${different.join(', ')})`,
        {
          details: { precedent_id: existing.id, different },
          hint: 'Repeat the original details, or detach it with precedent_detach and attach again.',
        },
      );
    }
    return ok(
      { precedent: precedentView(existing, kase.caseNumber, cited), created: false },
      'Already attached; the precedent is returned as it is',
    );
  },
});
