// What a writer needs for one block (docs/drafting.md "Context"), as sections of items, each with its
// provenance: the case's own references first (src/drafting/context_references.ts), the parties' confirmed
// claims, the arguments with their claims, the other references of the case documents, the appraisers'
// facts and their conflicts, the chair's feedback, the precedents, approved holdings and style examples.

import * as z from 'zod';
import { countingFact } from '../analysis/agent_facts.ts';
import { displayValue, findConflicts, groupFacts } from '../analysis/conflicts.ts';
import { withArgumentClaims } from '../analysis/views.ts';
import { liveCase } from '../cases/live.ts';
import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from '../db/orm.ts';
import { appraisalFacts, argumentMaps, caseArguments, claims } from '../db/schema/analysis.ts';
import { cases } from '../db/schema/cases.ts';
import type { BlockKind } from '../db/schema/drafting.ts';
import { chairFeedback } from '../db/schema/review.ts';
import type { Db } from '../db/types.ts';
import { provenanceOf, provenanceOutput } from '../extractors/provenance.ts';
import { precedentItems, styleItems } from './context_library.ts';
import { referenceItems } from './context_references.ts';

export const contextSections = [
  'claim',
  'argument',
  'reference',
  'appraisal_fact',
  'appraisal_conflict',
  'feedback',
  'precedent',
  'approved_holding',
  'style_example',
] as const;
export type ContextSection = (typeof contextSections)[number];

/** Sections the context would carry were their families missing from this server (none now). */
export const pendingSections: readonly string[] = [];

/** An item's text is cut to this many characters (its source has the rest). */
export const MAX_ITEM_TEXT = 2000;
const MAX_CLAIMS = 500;
const MAX_FACTS = 300;
const MAX_FEEDBACK = 50;

export const contextItemOutput = z.object({
  section: z.enum(contextSections),
  id: z.string(),
  title: z.string().nullable(),
  text: z.string().describe(`≤ ${MAX_ITEM_TEXT} chars`),
  party: z.string().nullable(),
  claim_ids: z.array(z.uuid()).max(200).describe('An argument’s claims'),
  source: provenanceOutput.nullable(),
});
export type ContextItem = z.output<typeof contextItemOutput>;

const cut = (t: string) => {
  const s = t.replace(/\s+/g, ' ').trim();
  return s.length > MAX_ITEM_TEXT ? `${s.slice(0, MAX_ITEM_TEXT - 1)}…` : s;
};

/** Which sections each kind of block gets. */
const SECTIONS: Record<BlockKind, readonly ContextSection[]> = {
  header: ['feedback', 'style_example'],
  background: ['reference', 'appraisal_fact', 'feedback', 'style_example'],
  appellant_claims: ['claim', 'feedback', 'style_example'],
  respondent_claims: ['claim', 'feedback', 'style_example'],
  discussion: [
    'argument',
    'claim',
    'precedent',
    'approved_holding',
    'reference',
    'appraisal_fact',
    'appraisal_conflict',
    'feedback',
    'style_example',
  ],
  outcome: ['argument', 'feedback', 'style_example'],
  costs: ['feedback', 'style_example'],
  signature: ['feedback', 'style_example'],
};

export const sectionsOf = (kind: BlockKind): readonly ContextSection[] => SECTIONS[kind];

type ClaimRow = typeof claims.$inferSelect;

const claimItem = (c: ClaimRow): ContextItem => ({
  section: 'claim',
  id: c.id,
  title: c.label,
  text: cut(c.wording ?? c.text),
  party: c.party,
  claim_ids: [],
  source: provenanceOf(c),
});

async function latestArguments(db: Db, caseId: string, only: readonly string[]) {
  // A block that names its arguments gets those (of whichever version); otherwise the latest map's.
  let where: SQL | undefined;
  if (only.length > 0) where = inArray(caseArguments.id, [...only]);
  else {
    const [map] = await db
      .select({ id: argumentMaps.id })
      .from(argumentMaps)
      .where(eq(argumentMaps.caseId, caseId))
      .orderBy(desc(argumentMaps.version))
      .limit(1);
    if (map === undefined) return [];
    where = eq(caseArguments.mapId, map.id);
  }
  const args = await db.select().from(caseArguments).where(where).orderBy(asc(caseArguments.position));
  return withArgumentClaims(db, args);
}

/** The context items of a block of `kind`, in section order. */
export async function blockContext(
  db: Db,
  caseId: string,
  block: {
    key: string;
    kind: BlockKind;
    title: string | null;
    text: string | null;
    argumentIds: readonly string[];
    citations: readonly { text: string; number?: string | undefined }[];
  },
): Promise<ContextItem[]> {
  const { kind, argumentIds } = block;
  const want = new Set(SECTIONS[kind]);
  // The case's own parcels, plans, statutes and sections open the context; the rest keep their section's place.
  const references = want.has('reference') ? await referenceItems(db, caseId, cut) : { own: [], rest: [] };
  const items: ContextItem[] = [...references.own];
  if (want.has('argument')) {
    const args = await latestArguments(db, caseId, argumentIds);
    for (const { arg, claims: cs } of args) {
      items.push({
        section: 'argument',
        id: arg.id,
        title: arg.title,
        text: cut(arg.summary ?? cs.map((c) => c.wording ?? c.text).join(' · ')),
        party: arg.party,
        claim_ids: cs.map((c) => c.id),
        source: null,
      });
    }
    if (kind === 'discussion') {
      const seen = new Set<string>();
      for (const { claims: cs } of args)
        for (const c of cs)
          if (!seen.has(c.id)) {
            seen.add(c.id);
            items.push(claimItem(c));
          }
    }
  } else if (want.has('claim')) {
    const party = kind === 'appellant_claims' ? 'appellant' : 'respondent';
    const rows = await db
      .select()
      .from(claims)
      .where(and(eq(claims.caseId, caseId), eq(claims.party, party), eq(claims.status, 'confirmed')))
      .orderBy(asc(claims.seq))
      .limit(MAX_CLAIMS);
    items.push(...rows.map(claimItem));
  }
  if (want.has('precedent')) items.push(...(await precedentItems(db, caseId, block, cut)));
  if (want.has('reference')) items.push(...references.rest);
  if (want.has('appraisal_fact') || want.has('appraisal_conflict')) {
    const facts = await db
      .select()
      .from(appraisalFacts)
      .where(and(countingFact, eq(appraisalFacts.caseId, caseId)))
      .orderBy(asc(appraisalFacts.documentId), asc(appraisalFacts.page), asc(appraisalFacts.start))
      .limit(MAX_FACTS);
    const subject = (f: { kind: string; name: string | null; parcel: string | null; plan: string | null }) =>
      [f.kind, f.name, f.parcel && `חלקה ${f.parcel}`, f.plan && `תכנית ${f.plan}`]
        .filter(Boolean)
        .join(' · ');
    if (want.has('appraisal_fact'))
      for (const f of facts)
        items.push({
          section: 'appraisal_fact',
          id: f.id,
          title: subject(f),
          text: cut(`${displayValue(f.value, f.unit)} (${f.appraiserName ?? f.appraiserRole})`),
          party: f.appraiserRole,
          claim_ids: [],
          source: provenanceOf(f),
        });
    if (want.has('appraisal_conflict'))
      for (const c of findConflicts(groupFacts(facts), 0)) {
        const first = c.sides[0];
        if (first === undefined) continue;
        items.push({
          section: 'appraisal_conflict',
          id: first.id,
          title: subject(c.group.facts[0] ?? first),
          text: cut(
            c.sides
              .map((s) => `${s.appraiserName ?? s.appraiserRole}: ${displayValue(s.value, s.unit)}`)
              .join(' ↔ '),
          ),
          party: null,
          claim_ids: [],
          source: provenanceOf(first),
        });
      }
  }
  if (want.has('feedback')) {
    // The chair's remarks on this kind of block and on the whole decision, from every case (a lesson carries
    // over), this case's first, then the newest; remarks about a deleted case are gone with it.
    const rows = await db
      .select({ f: chairFeedback })
      .from(chairFeedback)
      .leftJoin(cases, eq(cases.id, chairFeedback.caseId))
      .where(
        and(
          or(isNull(chairFeedback.caseId), liveCase),
          or(eq(chairFeedback.blockKind, kind), isNull(chairFeedback.blockKind)),
        ),
      )
      .orderBy(sql`${chairFeedback.caseId} is distinct from ${caseId}`, desc(chairFeedback.seq))
      .limit(MAX_FEEDBACK);
    for (const { f } of rows)
      items.push({
        section: 'feedback',
        id: f.id,
        title: `${f.kind}${f.blockKind === null ? ' · the whole decision' : ''}${f.caseId === caseId ? ' · this case' : ''}`,
        text: cut(f.text),
        party: null,
        claim_ids: [],
        source: null,
      });
  }
  if (want.has('style_example')) {
    // Without a text yet, the block's title and the arguments' titles say what it is about.
    const about = items.filter((i) => i.section === 'argument').map((i) => `${i.title} ${i.text}`);
    const query = block.text ?? [block.title ?? '', ...about].join(' ');
    items.push(...(await styleItems(db, caseId, kind, query, cut)));
  }
  return items;
}
