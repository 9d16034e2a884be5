// Decisions like a case (search_internal with like_case_id): the query is what makes the case what it is, not
// the words every file has. Its candidates are the legal grammar's readings of its documents (the sections,
// plans and statutes it cites), its practice area, its claims' words and its documents' words, each weighted
// by how rare it is among the committee's decisions; the appraisal's comparable transactions and the
// boilerplate of every file (גוש, חלקה, נמכר, ברחוב, דהיינו…) never count. The case's own final decision
// (its number, or the same bytes as one of its documents) is left out of the answer.
import { and, eq, inArray, isNotNull, ne, sql } from '../db/orm.ts';
import { claims } from '../db/schema/analysis.ts';
import type { CaseRow } from '../db/schema/cases.ts';
import { type DocumentRole, documentPages, documents } from '../db/schema/documents.ts';
import { practiceAreaLabels } from '../db/schema/vocabulary.ts';
import { type Db, rowsOf } from '../db/types.ts';
import { normalizeHebrew, prefixStripped, tokens } from '../hebrew/text.ts';
import { findPlans } from '../legal/plans.ts';
import { citationKey } from '../legal/proceedings.ts';
import { findSections, findStatutes, PLANNING_LAW } from '../legal/statutes.ts';
import { analyzeQuery, type QueryTerms, STOP_WORDS, spellingKey, wordTsquery } from './normalize.ts';

/** Words found in nearly every appeals-committee file: they say nothing about what a case is about. */
const BOILERPLATE = new Set(
  normalizeHebrew(
    'ועדת הערר ערר עררים לתכנון ובנייה התכנון והבנייה הוועדה המקומית מחוז מרכז העוררים העוררת המשיבה ' +
      'המשיבים החלטה סעיף לחוק התוספת השלישית עו"ד יו"ר בא כוח באת טענות טענת הטענה דיון והכרעה אשר על כן ' +
      'מתבקשת לפיכך בסך ש"ח ביום מיום שנת דהיינו כלומר היינו גוש חלקה חלקות מגרש נמכר נמכרה נמכרו מכר ' +
      'רחוב ברחוב כתובת עסקה עסקאות השוואה מ"ר דירה דירות קומה שטח מחיר שווי תאריך מספר הנכס נכס ' +
      'כאמור לעיל להלן עוד לאור מכאן ואולם אולם בנוסף כמו כן בהתאם לרבות',
  ).split(' '),
);
const BOILERPLATE_KEYS = new Set([...BOILERPLATE].map(spellingKey));

/** The appraisal roles, whose lists of comparable transactions describe other properties, not the case. */
const APPRAISALS: readonly DocumentRole[] = ['appraisal', 'deciding_appraisal', 'advisory_appraisal'];

/** How many terms describe a case, and how many candidates are weighed by rarity to choose them. */
export const LIKE_CASE_WORDS = 12;
const CANDIDATES = 40;
/** What a kind of candidate is worth before rarity: what the case cites says most about it. */
const SOURCE_WEIGHT = { reference: 3, area: 2, claim: 1.5, text: 1 } as const;
type Source = keyof typeof SOURCE_WEIGHT;

/** A line of comparable transactions: several numbers (sums, areas, dates, block and parcel) in one line. */
const isComparableLine = (line: string) => (line.match(/\d[\d,./-]*/g) ?? []).length >= 3;

const isContentWord = (t: string) =>
  t.length >= 3 &&
  !/^\d/.test(t) &&
  !STOP_WORDS.has(t) &&
  !BOILERPLATE_KEYS.has(spellingKey(t)) &&
  !prefixStripped(t).some((f) => BOILERPLATE_KEYS.has(spellingKey(f)) || STOP_WORDS.has(f));

interface Candidate {
  word: string;
  count: number;
  source: Source;
}

/** The candidates of one case, by spelling key: references, practice area, claims' words, documents' words. */
async function candidates(db: Db, c: Pick<CaseRow, 'id' | 'title' | 'practiceArea'>): Promise<Candidate[]> {
  const out = new Map<string, Candidate>();
  const add = (word: string, source: Source, count = 1) => {
    const key = spellingKey(word);
    const had = out.get(key);
    if (had === undefined) out.set(key, { word, count, source });
    else {
      had.count += count;
      if (SOURCE_WEIGHT[source] > SOURCE_WEIGHT[had.source]) had.source = source;
    }
  };
  const addText = (text: string, source: Source) => {
    for (const t of tokens(normalizeHebrew(text))) if (isContentWord(t)) add(t, source);
  };
  const pages = await db
    .select({ role: documents.role, text: documentPages.text })
    .from(documentPages)
    .innerJoin(documents, eq(documents.id, documentPages.documentId))
    .where(and(eq(documents.caseId, c.id), eq(documents.status, 'ready')))
    .limit(400);
  for (const p of pages) {
    // What the grammar reads: section numbers, plan numbers, and statutes other than the Planning Law.
    for (const s of findSections(p.text))
      for (const path of s.paths) {
        const number = /^\d+/.exec(path.path)?.[0];
        if (number !== undefined) add(number, 'reference');
      }
    for (const plan of findPlans(p.text))
      for (const t of tokens(normalizeHebrew(plan.key))) if (/\d/.test(t)) add(t, 'reference');
    for (const statute of findStatutes(p.text))
      if (statute.name !== PLANNING_LAW.name) addText(statute.name, 'reference');
    const lines = p.text.split('\n');
    const kept =
      p.role !== null && APPRAISALS.includes(p.role) ? lines.filter((l) => !isComparableLine(l)) : lines;
    addText(kept.join('\n'), 'text');
  }
  if (pages.length === 0) addText(c.title, 'text');
  if (c.practiceArea !== null) addText(practiceAreaLabels[c.practiceArea], 'area');
  const claimed = await db
    .select({ normText: claims.normText })
    .from(claims)
    .where(and(eq(claims.caseId, c.id), ne(claims.status, 'rejected')))
    .limit(200);
  for (const cl of claimed) addText(cl.normText, 'claim');
  return [...out.values()];
}

/**
 * The query for decisions like a case: up to LIKE_CASE_WORDS terms, each weighted by tf (log) × rarity among
 * the committee's decisions (idf over their chunks) × what kind of term it is. A term no decision has, or more
 * than half of their chunks have, is left out. Null when nothing is left.
 */
export async function likeCaseQuery(
  db: Db,
  c: Pick<CaseRow, 'id' | 'title' | 'practiceArea'>,
): Promise<QueryTerms | null> {
  const all = await candidates(db, c);
  const top = all
    .sort(
      (a, b) =>
        b.count * SOURCE_WEIGHT[b.source] - a.count * SOURCE_WEIGHT[a.source] || (a.word < b.word ? -1 : 1),
    )
    .slice(0, CANDIDATES)
    .map((cand) => ({ ...cand, analysed: analyzeQuery(cand.word).words[0] }))
    .filter((cand) => cand.analysed !== undefined);
  if (top.length === 0) return null;
  const counts = rowsOf<{ i: number | string; df: number | string; n: number | string }>(
    await db.execute(sql`
      with internal as (
        select c.tsv from document_chunks c join documents d on d.id = c.document_id
        where d.corpus = 'internal' and d.status = 'ready'
      )
      select t.i, (select count(*) from internal where tsv @@ to_tsquery('simple', t.q)) as df,
        (select count(*) from internal) as n
      from unnest(${`{${top.map((cand) => `"${wordTsquery(cand.analysed?.forms ?? []).replace(/"/g, '\\"')}"`).join(',')}}`}::text[])
        with ordinality as t(q, i)`),
  );
  const weighed = top.flatMap((cand, i) => {
    const row = counts.find((r) => Number(r.i) === i + 1);
    const df = Number(row?.df ?? 0);
    const n = Number(row?.n ?? 0);
    if (cand.analysed === undefined || df === 0 || df > n / 2) return [];
    const weight = (1 + Math.log(cand.count)) * Math.log((n + 1) / (df + 0.5)) * SOURCE_WEIGHT[cand.source];
    return [{ ...cand.analysed, weight }];
  });
  const chosen = weighed.sort((a, b) => (b.weight ?? 0) - (a.weight ?? 0)).slice(0, LIKE_CASE_WORDS);
  if (chosen.length === 0) return null;
  return { text: chosen.map((w) => w.surface).join(' '), words: chosen };
}

/**
 * The committee's decisions that are the case's own: the same bytes as one of its documents, or the number
 * the case was decided under (by the grammar's key: «ערר 3301/21» and «ערר 3301-21» are one).
 */
export async function ownDecisions(db: Db, c: Pick<CaseRow, 'id' | 'caseNumber'>): Promise<string[]> {
  const own = citationKey(c.caseNumber);
  const digits = /\d+/.exec(c.caseNumber)?.[0];
  const sameBytes = db.select({ sha256: documents.sha256 }).from(documents).where(eq(documents.caseId, c.id));
  const rows = await db
    .select({ id: documents.id, number: documents.number, sha256: documents.sha256 })
    .from(documents)
    .where(
      and(
        eq(documents.corpus, 'internal'),
        digits === undefined
          ? inArray(documents.sha256, sameBytes)
          : sql`(${inArray(documents.sha256, sameBytes)} or (${isNotNull(documents.number)} and ${documents.number} like ${`%${digits}%`}))`,
      ),
    );
  const bytes = new Set((await sameBytes).map((r) => r.sha256));
  return rows
    .filter((r) => bytes.has(r.sha256) || (r.number !== null && citationKey(r.number) === own))
    .map((r) => r.id);
}
