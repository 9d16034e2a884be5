// Dates and the deciding appraiser's name a case's documents suggest (docs/legal.md "Dates, panel and
// deadlines"): offered by case_get as candidates for an agent to check and set with case_dates_set or
// case_panel_set. Nothing here writes.

import * as z from 'zod';
import { and, asc, eq, inArray, lte, sql } from '../db/orm.ts';
import { appraisalFacts } from '../db/schema/analysis.ts';
import { type DocumentRole, documentPages, documents } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import { findDates } from '../legal/dates.ts';
import type { DatesView, PanelView } from './schedule.ts';

export const candidateFields = ['filing_date', 'response_date', 'hearing', 'deciding_appraiser'] as const;

export const candidateOutput = z.object({
  field: z.enum(candidateFields),
  value: z.string(),
  document_id: z.uuid(),
  document_title: z.string(),
  page: z.int(),
  text: z.string().describe('Where it was read'),
});
export type Candidate = z.output<typeof candidateOutput>;

/** Where each field's date is looked for: the roles of the documents, and words that announce it. */
const DATE_SOURCES: {
  field: 'filing_date' | 'response_date' | 'hearing';
  roles: DocumentRole[];
  cue: RegExp;
}[] = [
  { field: 'filing_date', roles: ['appeal'], cue: /(?:תאריך|הוגש|הגשה|היום)[^\n]{0,30}$/ },
  { field: 'response_date', roles: ['response'], cue: /(?:תאריך|הוגש|הגשה|היום)[^\n]{0,30}$/ },
  { field: 'hearing', roles: ['protocol'], cue: /(?:דיון|ישיבה|ישיבת|פרוטוקול|מיום|תאריך)[^\n]{0,30}$/ },
];

/**
 * «השמאי המכריע, מר ישראל ישראלי» / «שמאית מכריעה: גב' …» / «השמאי המכריע עו"ד …»: two or three words of a
 * name after the title, announced by a comma, a colon or an honorific (a bare word after the title is
 * mostly a verb: «השמאי המכריע קבע»).
 */
const APPRAISER =
  /ה?שמאי(?:ת)?\s+ה?מכריע(?:ה)?(?:\s*[,:–-]\s*(?:(?:מר|גב['׳]|גברת|עו["״]ד|ד["״]ר|אינג['׳])\s+)?|\s+(?:מר|גב['׳]|גברת|עו["״]ד|ד["״]ר|אינג['׳])\s+)([א-ת][א-ת'"׳״-]+(?:\s+[א-ת][א-ת'"׳״-]+){1,2})/gu;
/** Words that may follow the title but are no name. */
const NOT_NAME = /^(?:אשר|שמונה|מונה|קבע|קבעה|לא|כי|את|על|של|הוא|היא|ה?ממונה|בשומתו|בשומתה)$/;

const snippet = (text: string, start: number, end: number) =>
  text
    .slice(Math.max(0, start - 40), Math.min(text.length, end + 40))
    .replace(/\s+/g, ' ')
    .trim();

/** The pages read for candidates: the first two of a document (where dates and names are announced). */
const PAGES = 2;
const MAX_CANDIDATES = 20;

/** Dates and the deciding appraiser's name the case's ready documents suggest, without what is already set. */
export async function scheduleCandidates(
  db: DbOrTx,
  caseId: string,
  dates: DatesView,
  panel: PanelView,
): Promise<Candidate[]> {
  const roles = [...new Set(DATE_SOURCES.flatMap((s) => s.roles)), 'deciding_appraisal' as const];
  const pages = await db
    .select({
      documentId: documents.id,
      title: documents.title,
      role: documents.role,
      page: documentPages.page,
      text: documentPages.text,
    })
    .from(documentPages)
    .innerJoin(documents, eq(documents.id, documentPages.documentId))
    .where(
      and(
        eq(documents.caseId, caseId),
        eq(documents.status, 'ready'),
        inArray(documents.role, roles),
        lte(documentPages.page, PAGES),
      ),
    )
    .orderBy(asc(documents.createdAt), asc(documents.id), asc(documentPages.page));
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const push = (c: Candidate) => {
    const k = `${c.field}|${c.value}`;
    if (seen.has(k) || out.length >= MAX_CANDIDATES) return;
    seen.add(k);
    out.push(c);
  };
  const isSet = (field: Candidate['field'], value: string) =>
    field === 'filing_date'
      ? dates.filing_date !== null
      : field === 'response_date'
        ? dates.response_date !== null
        : field === 'hearing'
          ? dates.hearings.some((h) => h.date === value)
          : panel.deciding_appraiser !== null;
  // One date per document and field: the first one a cue announces, else the document's first date.
  const taken = new Set<string>();
  for (const p of pages) {
    for (const source of DATE_SOURCES) {
      if (p.role === null || !source.roles.includes(p.role)) continue;
      const k = `${source.field}|${p.documentId}`;
      if (taken.has(k)) continue;
      const found = findDates(p.text);
      const cued = found.find((d) => source.cue.test(p.text.slice(Math.max(0, d.start - 40), d.start)));
      const chosen = cued ?? (p.page === 1 ? found[0] : undefined);
      if (chosen === undefined) continue;
      taken.add(k);
      if (isSet(source.field, chosen.iso)) continue;
      push({
        field: source.field,
        value: chosen.iso,
        document_id: p.documentId,
        document_title: p.title,
        page: p.page,
        text: snippet(p.text, chosen.start, chosen.end),
      });
    }
    APPRAISER.lastIndex = 0;
    for (let m = APPRAISER.exec(p.text); m !== null; m = APPRAISER.exec(p.text)) {
      const words = (m[1] ?? '').trim().split(/\s+/);
      // A verb or a particle after the name is no part of it («מר יוסי לוי קבע»).
      while (words.length > 0 && NOT_NAME.test(words.at(-1) ?? '')) words.pop();
      const name = words.join(' ');
      if (words.length < 2 || NOT_NAME.test(words[0] ?? '') || isSet('deciding_appraiser', name)) continue;
      push({
        field: 'deciding_appraiser',
        value: name,
        document_id: p.documentId,
        document_title: p.title,
        page: p.page,
        text: snippet(p.text, m.index, m.index + m[0].length),
      });
    }
  }
  // The deciding appraiser as the appraisal extractor named the author of a deciding appraisal.
  if (panel.deciding_appraiser === null) {
    const named = await db
      .select({
        name: appraisalFacts.appraiserName,
        documentId: appraisalFacts.documentId,
        title: documents.title,
        page: sql<number>`min(${appraisalFacts.page})`,
        text: sql<string>`min(${appraisalFacts.text})`,
      })
      .from(appraisalFacts)
      .innerJoin(documents, eq(documents.id, appraisalFacts.documentId))
      .where(
        and(
          eq(appraisalFacts.caseId, caseId),
          eq(appraisalFacts.appraiserRole, 'deciding'),
          eq(appraisalFacts.status, 'active'),
          sql`${appraisalFacts.appraiserName} is not null`,
          eq(documents.status, 'ready'),
        ),
      )
      .groupBy(appraisalFacts.appraiserName, appraisalFacts.documentId, documents.title)
      .limit(5);
    for (const r of named)
      if (r.name !== null)
        push({
          field: 'deciding_appraiser',
          value: r.name,
          document_id: r.documentId,
          document_title: r.title,
          page: Number(r.page),
          text: r.text,
        });
  }
  return out;
}
