// Scoring for `npm run eval:real`: the annotated excerpt file's shape, how an annotation and what the tools
// returned are written as comparable items per kind, and recall/precision over a set of excerpts.
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { canonicalName } from '../../src/legal/text.ts';

const outcomeValue = z.enum(['rejection', 'partial_acceptance', 'full_acceptance']).nullable();

export const excerptSchema = z.object({
  id: z.string(),
  text: z.string(),
  own: z.array(z.string()),
  citations: z.array(z.string()),
  statutes: z.array(z.string()),
  sections: z.array(z.tuple([z.string().nullable(), z.string().nullable(), z.string().nullable()])),
  plans: z.array(z.string()),
  parcels: z.array(z.string()),
  amounts: z.array(z.tuple([z.number(), z.string()])),
  outcome: outcomeValue,
  prior_outcome: outcomeValue,
  claims: z.array(z.object({ party: z.string(), text: z.string() })),
});
export type Excerpt = z.infer<typeof excerptSchema>;

export const KINDS = [
  'citations',
  'statutes',
  'sections',
  'plans',
  'parcels',
  'amounts',
  'outcome',
  'prior_outcome',
  'claims',
] as const;
export type Kind = (typeof KINDS)[number];

/** What one excerpt expects and what the tools found, as comparable strings per kind. */
export type Items = Record<Kind, string[]>;

/** A third of the excerpts, fixed by a hash of the id, is held out: never tuned on. */
export const heldOut = (id: string): boolean => (createHash('sha256').update(id).digest()[0] ?? 0) % 3 === 0;

const ascii = (s: string) =>
  s
    .replace(/[\u05F3\u2019\u2018`´]/g, "'")
    .replace(/[\u05F4\u201C\u201D]/g, '"')
    .trim();

/** A statute's name and year as one comparable spelling (בנייה/בניה, quote marks, spacing). */
export const statuteItem = (s: string) => canonicalName(ascii(s));

/** [statute or null, schedule or null, path or null] as one item. */
export const sectionItem = (statute: string | null, schedule: string | null, path: string | null) =>
  [
    statute === null ? '∅' : statuteItem(statute),
    schedule === null ? '' : canonicalName(schedule),
    path === null ? '' : path.replace(/\s/g, ''),
  ]
    .filter((p, i) => i === 0 || p !== '')
    .join(' | ');

/** A plan number as the annotation writes it (spaced as a planner writes it: תמ"א 38, ג/8647). */
export const planItem = (p: string) => ascii(p).replace(/\s+/g, ' ');

/** A section key as the references store it: «<statute>[ <schedule>][ ס'|תקנה <path>]», or «ס' <path>» alone. */
export function sectionOfKey(key: string): string {
  const m = /^(.*?)\s*(?:(התוספת \S+))?\s*(?:(?:ס'|תקנה) (\S+))?$/.exec(key);
  const statute = m?.[1] ?? '';
  return sectionItem(statute === '' ? null : statute, m?.[2] ?? null, m?.[3] ?? null);
}

/** A parcel key «גוש 6638 חלקה 12» / «גוש 6638» as the annotation writes it: 6638/12, 6638. */
export function parcelOfKey(key: string): string {
  const m = /^גוש (\d+)(?: חלקה (\d+))?$/.exec(key);
  if (m === null) return key;
  return m[2] === undefined ? `${m[1]}` : `${m[1]}/${m[2]}`;
}

/** The annotation as items. Amounts compare by value and label («192500 levy»). */
export function expectedItems(e: Excerpt): Items {
  return {
    citations: e.citations.map(ascii),
    statutes: e.statutes.map(statuteItem),
    sections: e.sections.map(([s, sch, p]) => sectionItem(s, sch, p)),
    plans: e.plans.map(planItem),
    parcels: e.parcels.map((p) => p.trim()),
    amounts: e.amounts.map(([v, kind]) => `${v} ${kind}`),
    outcome: e.outcome === null ? [] : [e.outcome],
    prior_outcome: e.prior_outcome === null ? [] : [e.prior_outcome],
    claims: e.claims.map((c) => `${c.party}: ${c.text}`),
  };
}

export interface Tally {
  expected: number;
  found: number;
  hit: number;
}

export const emptyTally = (): Tally => ({ expected: 0, found: 0, hit: 0 });

/** Multiset matching of two item lists: what matched, what was missed and what is spurious. */
export function compare(
  expected: readonly string[],
  found: readonly string[],
  same: (e: string, f: string) => boolean = (e, f) => e === f,
): { hit: number; missed: string[]; spurious: string[] } {
  const left = [...new Set(found)];
  const missed: string[] = [];
  let hit = 0;
  for (const e of new Set(expected)) {
    const i = left.findIndex((f) => same(e, f));
    if (i === -1) missed.push(e);
    else {
      hit++;
      left.splice(i, 1);
    }
  }
  return { hit, missed, spurious: left };
}

const pct = (a: number, b: number) => (b === 0 ? '   —  ' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);

/** The table of one set of excerpts: per kind, expected, found, matched, recall and precision. */
export function table(title: string, tallies: Record<Kind, Tally>): string {
  const rows = [`${title}`, 'kind           expected  found  hit  recall  precision'];
  for (const k of KINDS) {
    const t = tallies[k];
    rows.push(
      `${k.padEnd(14)} ${String(t.expected).padStart(8)} ${String(t.found).padStart(6)} ${String(t.hit).padStart(4)}  ${pct(t.hit, t.expected)}  ${pct(t.hit, t.found)}`,
    );
  }
  return rows.join('\n');
}
