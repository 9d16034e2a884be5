import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { empty } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { documentChunks, documents } from '../../src/db/schema/documents.ts';
import type { Db } from '../../src/db/types.ts';
import { normalizeHebrew, prefixStripped, tokens } from '../../src/hebrew/text.ts';
import { analyzeQuery, STOP_WORDS } from '../../src/search/normalize.ts';
import {
  hitDescription,
  queryInput,
  runSearch,
  searchOutput,
  searchPages,
} from '../../src/search/search_tool.ts';

/** Words found in nearly every appeals-committee document: they say nothing about what a case is about. */
const BOILERPLATE = new Set(
  normalizeHebrew(
    'ועדת הערר ערר עררים לתכנון ובנייה התכנון והבנייה הוועדה המקומית מחוז מרכז העוררים העוררת המשיבה ' +
      'המשיבים החלטה סעיף לחוק התוספת השלישית עו"ד יו"ר בא כוח באת טענות טענת הטענה דיון והכרעה אשר על כן ' +
      'מתבקשת לפיכך בסך ש"ח ביום מיום שנת',
  ).split(' '),
);
/** How many words of a case describe it for like_case_id. */
const LIKE_CASE_WORDS = 12;

/** The words that characterise a case: the most frequent content words of its indexed documents and title. */
async function caseProfile(db: Db, caseId: string, title: string): Promise<string[]> {
  const rows = await db
    .select({ normText: documentChunks.normText })
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(and(eq(documents.caseId, caseId), eq(documents.status, 'ready')))
    .limit(500);
  const counts = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const t of tokens(text)) {
      if (t.length < 3 || /^\d/.test(t) || STOP_WORDS.has(t) || BOILERPLATE.has(t)) continue;
      if (prefixStripped(t).some((f) => BOILERPLATE.has(f) || STOP_WORDS.has(f))) continue;
      counts.set(t, (counts.get(t) ?? 0) + weight);
    }
  };
  for (const r of rows) add(r.normText, 1);
  if (rows.length === 0) add(normalizeHebrew(title), 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, LIKE_CASE_WORDS)
    .map(([t]) => t);
}

export const search_internal = defineTool({
  name: 'search_internal',
  title: 'Search the committee’s own decisions',
  description:
    'Word search in the committee’s own past decisions, for consistency with earlier rulings. Give a ' +
    'query, or like_case_id (decisions like a case: its documents’ characteristic words become the ' +
    'query), or both. Hits carry the decision’s number, date, committee and parties. ' +
    `${hitDescription}`,
  input: {
    query: queryInput.optional(),
    like_case_id: z.uuid().optional().describe('Find decisions like this case’s documents'),
  },
  output: searchOutput.internal,
  mutates: false,
  pages: searchPages,
  async run({ ctx, input, page }) {
    if (input.query === undefined && input.like_case_id === undefined) {
      throw invalidArg('query', 'required unless like_case_id is given');
    }
    let text = input.query ?? '';
    if (input.like_case_id !== undefined) {
      const c = await loadLiveCase(ctx.db, input.like_case_id);
      const profile = await caseProfile(ctx.db, c.id, c.title);
      if (profile.length === 0 && input.query === undefined) {
        return empty({ ...page.of([], null), query_terms: [] }, 'The case has no indexed text to compare');
      }
      text = `${text} ${profile.join(' ')}`;
    }
    return runSearch(ctx, page, { corpus: 'internal' }, analyzeQuery(text), (hit) => ({
      number: hit.number,
      decision_date: hit.decisionDate,
      committee: hit.committee,
      parties: hit.parties,
    }));
  },
});
