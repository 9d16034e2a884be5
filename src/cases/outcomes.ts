// The three outcomes of an appeal as the tools take and read them: the vocabulary and its Hebrew labels
// (src/db/schema/vocabulary.ts), and on input the legacy values older clients and the library's first
// vocabulary sent. Betterment levy is a practice area, never an outcome. Reading an outcome stated in a text
// is src/legal/outcomes.ts's job.
import * as z from 'zod';
import { type Outcome, outcomeLabels, outcomes } from '../db/schema/vocabulary.ts';
import { vocabularyInput } from './vocabulary_input.ts';

/** Legacy values, mapped on input only: nothing is stored or returned in these words. */
const legacy: Readonly<Record<string, Outcome>> = {
  rejected: 'rejection',
  partial: 'partial_acceptance',
  partially_accepted: 'partial_acceptance',
  accepted: 'full_acceptance',
};

/** The Hebrew words of a conclusion, as legacy input: "נדחה", "התקבל בחלקו", "הערר התקבל"… */
const legacyHebrew: Readonly<Record<string, Outcome>> = {
  נדחה: 'rejection',
  'הערר נדחה': 'rejection',
  'התקבל בחלקו': 'partial_acceptance',
  'הערר התקבל בחלקו': 'partial_acceptance',
  התקבל: 'full_acceptance',
  'הערר התקבל': 'full_acceptance',
};

const outcomeWords = vocabularyInput({
  values: outcomes,
  labels: outcomeLabels,
  legacy: { ...legacy, ...legacyHebrew },
  noun: 'an outcome',
  note: 'Betterment levy is a practice area, not an outcome.',
});

/** Every value an outcome parameter accepts, for the refusal that lists them. */
export const acceptedOutcomeValues: readonly string[] = outcomeWords.accepted;

/** The canonical outcome a value names (canonical, Hebrew label or legacy), or null. */
export const parseOutcome = (value: string): Outcome | null => outcomeWords.parse(value);

/** An outcome parameter: any accepted value, mapped by `outcomeOf` (which refuses the rest). */
export const outcomeInput = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .describe('rejection | partial_acceptance | full_acceptance (or דחייה, קבלה חלקית, קבלה מלאה)');

/** The canonical outcome of a parameter's value, or invalid_args listing the accepted values. */
export const outcomeOf = (value: string, path = 'outcome'): Outcome => outcomeWords.of(value, path);
