// The three outcomes of an appeal, as the tools take and read them: canonical values, their Hebrew labels,
// and the legacy values older clients send. Betterment levy is a practice area, never an outcome.
import * as z from 'zod';
import { invalidArgs } from '../contract/errors.ts';
import { caseOutcomes } from '../db/schema/cases.ts';
import { normalizeHebrew } from '../hebrew/text.ts';

export type CaseOutcome = (typeof caseOutcomes)[number];

export const outcomeLabels: Readonly<Record<CaseOutcome, string>> = {
  rejection: 'דחייה',
  partial_acceptance: 'קבלה חלקית',
  full_acceptance: 'קבלה מלאה',
};

const legacy: Readonly<Record<string, CaseOutcome>> = {
  rejected: 'rejection',
  partial: 'partial_acceptance',
  accepted: 'full_acceptance',
};

/** Every value an outcome parameter accepts, for the refusal that lists them. */
export const acceptedOutcomeValues: readonly string[] = [
  ...caseOutcomes,
  ...Object.values(outcomeLabels),
  ...Object.keys(legacy),
];

const byLabel = new Map(
  Object.entries(outcomeLabels).map(([k, label]) => [normalizeHebrew(label), k as CaseOutcome]),
);

/** The canonical outcome a value names (canonical, Hebrew label or legacy), or null. */
export function parseOutcome(value: string): CaseOutcome | null {
  const v = value
    .trim()
    .toLowerCase()
    .replaceAll(/[\s-]+/g, '_');
  if ((caseOutcomes as readonly string[]).includes(v)) return v as CaseOutcome;
  const old = legacy[v];
  if (old !== undefined) return old;
  return byLabel.get(normalizeHebrew(value)) ?? null;
}

// The wording of a conclusion: "הערר נדחה", "הערר מתקבל בחלקו", "הערר מתקבל" (and their common variants).
// Partial comes first: "מתקבל בחלקו" also contains "מתקבל".
const WORDINGS: readonly [CaseOutcome, RegExp][] = [
  [
    'partial_acceptance',
    /(מתקבל|התקבל|מתקבלת|נתקבל)\s+(ב?חלקו|בחלקה|באופן\s+חלקי)|קבלה\s+חלקית|מתקבל\s+חלקית/u,
  ],
  ['rejection', /(הערר|העררים|העתירה)\s+(נדחה|נדחים|נדחית)|נדחה\s+בזאת|דחיית\s+הערר|אנו\s+דוחים/u],
  ['full_acceptance', /(הערר|העררים)\s+(מתקבל|מתקבלים|התקבל)|קבלה\s+מלאה|קבלת\s+הערר|אנו\s+מקבלים/u],
];

/** The outcomes an outcome block's text states, in the order of the rules (several means it is ambiguous). */
export function outcomesStated(text: string): CaseOutcome[] {
  // Quote marks and niqqud aside, the wording is matched as written: the normaliser would drop prefixes.
  const flat = text.replaceAll(/[\u0591-\u05C7]/g, '').replaceAll(/\s+/g, ' ');
  const found: CaseOutcome[] = [];
  let rest = flat;
  for (const [outcome, re] of WORDINGS) {
    if (re.test(rest)) {
      found.push(outcome);
      // "מתקבל בחלקו" must not also count as full acceptance.
      rest = rest.replace(new RegExp(re.source, 'gu'), ' ');
    }
  }
  return found;
}

/** An outcome parameter: any accepted value, mapped by `outcomeOf` (which refuses the rest). */
export const outcomeInput = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .describe('rejection | partial_acceptance | full_acceptance (or דחייה, קבלה חלקית, קבלה מלאה)');

/** The canonical outcome of a parameter's value, or invalid_args listing the accepted values. */
export function outcomeOf(value: string, path = 'outcome'): CaseOutcome {
  const outcome = parseOutcome(value);
  if (outcome === null) {
    throw invalidArgs(
      [{ path, message: `"${value}" is not an outcome` }],
      `Use one of: ${acceptedOutcomeValues.join(', ')}. Betterment levy is a practice area, not an outcome.`,
      { details: { accepted: acceptedOutcomeValues } },
    );
  }
  return outcome;
}
