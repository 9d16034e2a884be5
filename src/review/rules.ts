// The rule checks over a whole draft that need no source: required blocks with substance (no placeholder, a
// minimum of real words), every confirmed claim answered, the outcome stated as set, the header as the case
// records it, the figures against the deciding appraiser's (a party's figure restated is no mismatch; a figure
// orders of magnitude off the case's is implausible), and (a style note, only when asked for) the quote marks
// of Hebrew abbreviations.
import { extractFacts } from '../analysis/appraisal.ts';
import type { appraisalFacts, claims } from '../db/schema/analysis.ts';
import type { CaseRow } from '../db/schema/cases.ts';
import type { BlockKind, DraftBlockRow } from '../db/schema/drafting.ts';
import { type Outcome, outcomeLabels } from '../db/schema/vocabulary.ts';
import { requiredBlockKinds } from '../drafting/blocks.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { outcomesStated } from '../legal/outcomes.ts';
import { partiesAgreement } from './citations.ts';
import { cut, type Finding, fixFor, noProvenance } from './findings.ts';

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
  /** Typography notes (latin_quote_mark) too: off by default. */
  styleNotes?: boolean;
}

const finding = (
  code: string,
  severity: Finding['severity'],
  block: DraftBlockRow | null,
  message: string,
  more: Partial<Finding['provenance']> = {},
  how: { kind?: BlockKind; fix?: string } = {},
): Finding => ({
  code,
  severity,
  block: block?.key ?? null,
  block_kind: block?.kind ?? how.kind ?? null,
  message,
  fix: how.fix ?? fixFor(code),
  provenance: { ...noProvenance(), block_version: block?.version ?? null, ...more },
});

/** Words of at least two letters: what a placeholder («—», «.», «xx») lacks. */
const REAL_WORD = /[\p{L}]{2,}/gu;
const PLACEHOLDER =
  /\b(?:lorem|ipsum|dolor\s+sit|todo|tbd|tba|placeholder|xxx+)\b|טקסט\s+לדוגמ|כאן\s+(?:יבוא|יופיע|ייכתב)|להשלים|ימולא\s+בהמשך|טרם\s+נכתב/iu;
/** The fewest real words a required block of each kind may have. */
const MIN_WORDS: Record<BlockKind, number> = {
  header: 3,
  background: 4,
  appellant_claims: 4,
  respondent_claims: 4,
  discussion: 6,
  outcome: 2,
  costs: 2,
  signature: 2,
};

/** Why a block's text is no substance, or null when it is. */
export function placeholderOf(kind: BlockKind, text: string): string | null {
  const words = text.match(REAL_WORD)?.length ?? 0;
  const stub = PLACEHOLDER.exec(text);
  if (stub !== null) return `it holds a placeholder «${cut(stub[0], 40)}»`;
  if (words < MIN_WORDS[kind]) return `${words} real word(s), at least ${MIN_WORDS[kind]} needed`;
  return null;
}

function requiredBlocks(d: DraftFacts): Finding[] {
  return requiredBlockKinds.flatMap((kind) => {
    const of = d.blocks.filter((b) => b.kind === kind);
    if (of.length === 0)
      return [finding('required_block_missing', 'error', null, `No ${kind} block`, {}, { kind })];
    return of.flatMap((b) => {
      // Only whitespace and invisible marks (a lone U+200F, as pasting from Word leaves) is nothing written.
      if (b.text.replace(/[\s\p{Cf}]/gu, '') === '')
        return [finding('required_block_empty', 'error', b, `The ${kind} block is empty`)];
      const why = placeholderOf(kind, b.text);
      return why === null
        ? []
        : [
            finding(
              'required_block_placeholder',
              'error',
              b,
              `The ${kind} block has no substance: ${why} («${cut(b.text, 60)}»)`,
              { excerpt: cut(b.text, 200) },
            ),
          ];
    });
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
        `The ${c.party}'s claim ${c.id} («${cut(c.wording ?? c.text, 80)}») is answered by no discussion block`,
        {
          claim_id: c.id,
          document_id: c.documentId,
          page: c.page,
          excerpt: cut(c.wording ?? c.text, 200),
        },
        {
          kind: 'discussion',
          fix: `Answer the claim in a discussion block by its id: add ${c.id} to the block's claim_ids (block_write), or an argument that holds it to its argument_ids.`,
        },
      ),
    );
}

function outcome(d: DraftFacts): Finding[] {
  const out: Finding[] = [];
  const set = d.caseRow.outcome;
  // The case-level outcome findings name the outcome block, where the outcome is stated.
  const block = d.blocks.find((b) => b.kind === 'outcome') ?? null;
  if (set === null) {
    out.push(
      finding(
        'outcome_not_set',
        'warning',
        block,
        'The case has no outcome yet (the owner sets it with outcome_set)',
        {},
        { kind: 'outcome' },
      ),
    );
  }
  if (set !== null && d.directionOutcome !== null && d.directionOutcome !== set) {
    out.push(
      finding(
        'direction_mismatch',
        'warning',
        block,
        `The approved direction leads to ${outcomeLabels[d.directionOutcome]}, the case's outcome is ${outcomeLabels[set]}`,
        {},
        { kind: 'outcome' },
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

/** Blocks that restate the parties' claims: their figures are the parties', not the committee's. */
const CLAIMS_BLOCKS: ReadonlySet<BlockKind> = new Set(['appellant_claims', 'respondent_claims']);
const PARTY =
  '(?:ה|ו|ש|ל|מ)*(?:עוררי?ם?|עוררות|עוררת|משיב(?:ה|ים|ות)?|מערער\\S*|עותר\\S*|צדדים|מבקש\\S*|וועדה\\s+(?:ה)?מקומית)';
const BY = `(?:(?:ה)?שמאי(?:ת)?\\s+(?:מטעם\\s+|של\\s+)?)?${PARTY}`;
/** A sentence that gives a figure as a party's or its appraiser's: «לטענת העוררים», «השמאי מטעם העוררים העריך». */
const ATTRIBUTED = new RegExp(
  [
    `(?:לטענת|לשיטת|לגישת|לעמדת|לדידם\\s+של|לדעת|כטענת|לפי\\s+(?:טענת|שומת|חוות\\s+(?:ה)?דעת))\\s+${BY}`,
    `(?<![\\p{L}])(?:לטענת|לשיטת|לגישת|כטענת|לעמדת)(?:ם|ן|ה|ו)(?![\\p{L}])`,
    `${PARTY}\\s+(?:טוענ\\S*|טען\\S*|סבור\\S*|העריכ\\S*|העריך|מבקש\\S*|ביקש\\S*|דורש\\S*|דרש\\S*|הציג\\S*)`,
    `(?:שמאי(?:ת)?|שומת|חוות\\s+(?:ה)?דעת)\\s+(?:(?:ה)?שמאי(?:ת)?\\s+)?(?:מטעם|של)\\s+${PARTY}`,
    `(?:שמאי(?:ת)?|שומת)\\s+${PARTY}`,
  ].join('|'),
  'u',
);

/** The sentence of a text around [start, end). */
function sentenceAt(text: string, start: number, end: number): string {
  const from = Math.max(text.lastIndexOf('.', start - 1), text.lastIndexOf('\n', start - 1)) + 1;
  const stops = [text.indexOf('.', end), text.indexOf('\n', end)].filter((i) => i >= 0);
  return text.slice(from, stops.length === 0 ? text.length : Math.min(...stops));
}

/** Whether a figure at [start, end) of a text is given as a party's. */
export const attributedToParty = (text: string, start: number, end: number): boolean =>
  ATTRIBUTED.test(sentenceAt(text, start, end));

/** A sum this many times smaller or larger than every figure of the case is implausible. */
const IMPLAUSIBLE_RATIO = 100;
/** Without the case's figures, a value, betterment or levy under this many agorot (₪1,000) is implausible. */
const IMPLAUSIBLE_FLOOR = 100_000;

/**
 * A figure the draft gives under an appraisal fact's cue: first compared with the deciding appraiser's figures
 * of that kind, then with any appraiser's; a party's figure (in the claims blocks, or attributed in the text)
 * is not compared; a sum orders of magnitude off the case's is implausible.
 */
function figures(d: DraftFacts): Finding[] {
  const out: Finding[] = [];
  const money = d.facts.filter((f) => f.unit === 'agorot' && f.kind !== 'price_per_sqm');
  for (const b of d.blocks) {
    if (CLAIMS_BLOCKS.has(b.kind)) continue;
    for (const c of extractFacts([b.text])) {
      if (attributedToParty(b.text, c.start, c.end)) continue;
      const stored = d.facts.filter(
        (f) =>
          f.kind === c.kind && f.unit === c.unit && (c.name === null || f.name === null || f.name === c.name),
      );
      const near = (f: FactRow) => Math.abs(f.value - c.value) <= tolerance(c.unit);
      if (c.unit === 'agorot' && c.kind !== 'price_per_sqm') {
        const against = stored.length > 0 ? stored : money;
        const values = against.map((f) => f.value);
        const off =
          values.length === 0
            ? c.value < IMPLAUSIBLE_FLOOR
            : c.value * IMPLAUSIBLE_RATIO < Math.min(...values) ||
              c.value > Math.max(...values) * IMPLAUSIBLE_RATIO;
        if (off) {
          out.push(
            finding(
              'figure_implausible',
              'error',
              b,
              `The ${c.kind.replaceAll('_', ' ')} «${cut(c.text, 80)}» is implausible against the case's figures${values.length === 0 ? '' : ` (${[...new Set(against.map((f) => cut(f.text, 40)))].slice(0, 3).join(', ')})`}`,
              {
                fact_id: against[0]?.id ?? null,
                document_id: against[0]?.documentId ?? null,
                page: against[0]?.page ?? null,
                excerpt: cut(c.text, 200),
              },
            ),
          );
          continue;
        }
      }
      if (stored.length === 0) continue;
      const deciding = stored.filter((f) => f.appraiserRole === 'deciding');
      if (deciding.some(near) || stored.some(near)) continue;
      const first = deciding[0] ?? stored[0];
      out.push(
        finding(
          'fact_mismatch',
          'error',
          b,
          `The ${c.kind.replaceAll('_', ' ')} «${cut(c.text, 80)}» matches none of the appraisers' figures${deciding.length > 0 ? ` (the deciding appraiser's: ${deciding.map((f) => `«${cut(f.text, 40)}»`).join(', ')})` : ''}`,
          {
            fact_id: first?.id ?? null,
            document_id: first?.documentId ?? null,
            page: first?.page ?? null,
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
    finding('latin_quote_mark', 'note', block, `«${m[0]}» uses a Latin quote mark; write ״ or ׳`, {
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
    ...(d.styleNotes === true ? d.blocks.flatMap((b) => latinMarks(b.text, b, null, null)) : []),
  ];
}
