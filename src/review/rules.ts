// The rule checks over a whole draft that need no source: required blocks, every confirmed claim answered,
// the outcome stated as set, the header as the case records it, the appraisers' figures, and the quote
// marks of Hebrew abbreviations.
import { extractFacts } from '../analysis/appraisal.ts';
import type { appraisalFacts, claims } from '../db/schema/analysis.ts';
import type { CaseRow } from '../db/schema/cases.ts';
import type { DraftBlockRow } from '../db/schema/drafting.ts';
import { type Outcome, outcomeLabels } from '../db/schema/vocabulary.ts';
import { requiredBlockKinds } from '../drafting/blocks.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { outcomesStated } from '../legal/outcomes.ts';
import { partiesAgreement } from './citations.ts';
import { cut, type Finding, noProvenance } from './findings.ts';

type ClaimRow = typeof claims.$inferSelect;
type FactRow = typeof appraisalFacts.$inferSelect;

export interface DraftFacts {
  caseRow: CaseRow;
  blocks: readonly DraftBlockRow[];
  /** Confirmed claims of the parties. */
  claims: readonly ClaimRow[];
  /** argument id → its claim ids (every version of the case's argument map). */
  argumentClaims: ReadonlyMap<string, readonly string[]>;
  facts: readonly FactRow[];
  directionOutcome: Outcome | null;
}

const finding = (
  code: string,
  severity: Finding['severity'],
  block: DraftBlockRow | null,
  message: string,
  more: Partial<Finding['provenance']> = {},
): Finding => ({
  code,
  severity,
  block: block?.key ?? null,
  message,
  provenance: { ...noProvenance(), block_version: block?.version ?? null, ...more },
});

function requiredBlocks(d: DraftFacts): Finding[] {
  return requiredBlockKinds.flatMap((kind) => {
    const of = d.blocks.filter((b) => b.kind === kind);
    if (of.length === 0) return [finding('required_block_missing', 'error', null, `No ${kind} block`)];
    return of
      .filter((b) => b.text.trim() === '')
      .map((b) => finding('required_block_empty', 'error', b, `The ${kind} block is empty`));
  });
}

function claimsAnswered(d: DraftFacts): Finding[] {
  const answered = new Set<string>();
  for (const b of d.blocks.filter((x) => x.kind === 'discussion')) {
    for (const id of b.claimIds) answered.add(id);
    for (const a of b.argumentIds) for (const id of d.argumentClaims.get(a) ?? []) answered.add(id);
  }
  return d.claims
    .filter((c) => !answered.has(c.id))
    .map((c) =>
      finding(
        'claim_unanswered',
        'error',
        null,
        `The ${c.party}'s claim is answered by no discussion block`,
        {
          claim_id: c.id,
          document_id: c.documentId,
          page: c.page,
          excerpt: cut(c.wording ?? c.text, 200),
        },
      ),
    );
}

function outcome(d: DraftFacts): Finding[] {
  const out: Finding[] = [];
  const set = d.caseRow.outcome;
  if (set === null) {
    out.push(
      finding(
        'outcome_not_set',
        'warning',
        null,
        'The case has no outcome yet (the owner sets it with outcome_set)',
      ),
    );
  }
  if (set !== null && d.directionOutcome !== null && d.directionOutcome !== set) {
    out.push(
      finding(
        'direction_mismatch',
        'warning',
        null,
        `The approved direction leads to ${outcomeLabels[d.directionOutcome]}, the case's outcome is ${outcomeLabels[set]}`,
      ),
    );
  }
  for (const b of d.blocks.filter((x) => x.kind === 'outcome' && x.text.trim() !== '')) {
    const stated = outcomesStated(b.text);
    if (stated.length === 0) {
      out.push(
        finding(
          'outcome_not_stated',
          'error',
          b,
          'The outcome block states no outcome (הערר נדחה / מתקבל בחלקו / מתקבל)',
        ),
      );
    } else if (stated.length > 1) {
      out.push(
        finding(
          'outcome_ambiguous',
          'error',
          b,
          `The outcome block states ${stated.map((o) => outcomeLabels[o]).join(' and ')}`,
        ),
      );
    } else if (set !== null && stated[0] !== set) {
      out.push(
        finding(
          'outcome_mismatch',
          'error',
          b,
          `The block states ${outcomeLabels[stated[0] as Outcome]}; the case's outcome is ${outcomeLabels[set]}`,
        ),
      );
    }
  }
  return out;
}

/** The header names the case number, the parties and the committee as the case records them. */
function header(d: DraftFacts): Finding[] {
  const head = d.blocks.find((b) => b.kind === 'header');
  if (head === undefined || head.text.trim() === '') return [];
  const text = normalizeHebrew(head.text);
  const out: Finding[] = [];
  if (!text.includes(normalizeHebrew(d.caseRow.caseNumber))) {
    out.push(
      finding(
        'header_case_number',
        'error',
        head,
        `The header does not carry the case number ${d.caseRow.caseNumber}`,
      ),
    );
  }
  const named: [string, string | null][] = [
    ['appellant', d.caseRow.appellant],
    ['respondent', d.caseRow.respondent],
    ['committee', d.caseRow.committee],
  ];
  for (const [what, value] of named) {
    if (value !== null && partiesAgreement(value, head.text) < 0.5) {
      out.push(
        finding(
          `header_${what}`,
          'error',
          head,
          `The header does not name the ${what} as the case records it: «${value}»`,
        ),
      );
    }
  }
  return out;
}

const tolerance = (unit: string) =>
  unit === 'percent' ? 0.01 : unit === 'sqm' ? 0.5 : unit === 'agorot' ? 100 : 0;

/** A figure the draft gives under an appraisal fact's cue must be one of the appraisers' for that kind. */
function figures(d: DraftFacts): Finding[] {
  const out: Finding[] = [];
  for (const b of d.blocks) {
    for (const c of extractFacts([b.text])) {
      const stored = d.facts.filter(
        (f) =>
          f.kind === c.kind && f.unit === c.unit && (c.name === null || f.name === null || f.name === c.name),
      );
      if (stored.length === 0) continue;
      if (stored.some((f) => Math.abs(f.value - c.value) <= tolerance(c.unit))) continue;
      out.push(
        finding(
          'fact_mismatch',
          'error',
          b,
          `The ${c.kind.replaceAll('_', ' ')} «${cut(c.text, 80)}» matches none of the appraisers' figures`,
          {
            fact_id: stored[0]?.id ?? null,
            document_id: stored[0]?.documentId ?? null,
            page: stored[0]?.page ?? null,
            excerpt: cut(c.text, 200),
          },
        ),
      );
    }
  }
  return out;
}

// A Latin " or ' between Hebrew letters: an abbreviation (עע"מ, ע'א) written with ASCII marks, not ״ or ׳.
const LATIN_MARK = /[\u05D0-\u05EA]+["'][\u05D0-\u05EA]+/g;

export function latinMarks(
  text: string,
  block: DraftBlockRow | null,
  page: number | null,
  documentId: string | null,
): Finding[] {
  return [...text.matchAll(LATIN_MARK)].map((m) =>
    finding('latin_quote_mark', 'warning', block, `«${m[0]}» uses a Latin quote mark; write ״ or ׳`, {
      excerpt: m[0],
      page,
      document_id: documentId,
    }),
  );
}

/** Every rule over the draft that needs no source. */
export function draftRules(d: DraftFacts): Finding[] {
  return [
    ...requiredBlocks(d),
    ...claimsAnswered(d),
    ...outcome(d),
    ...header(d),
    ...figures(d),
    ...d.blocks.flatMap((b) => latinMarks(b.text, b, null, null)),
  ];
}
