// The practice area as the tools take it: the vocabulary and its Hebrew labels (src/db/schema/vocabulary.ts),
// and on input the free-text words cases were opened with before ("betterment levy", "permit", "plan"…).
import * as z from 'zod';
import { invalidArgs } from '../contract/errors.ts';
import { type PracticeArea, practiceAreaLabels, practiceAreas } from '../db/schema/vocabulary.ts';
import { normalizeHebrew } from '../hebrew/text.ts';

/** Legacy words, mapped on input only (the migration that gave cases the vocabulary maps the same ones). */
const legacy: Readonly<Record<string, PracticeArea>> = {
  betterment: 'betterment_levy',
  levy: 'betterment_levy',
  compensations: 'compensation',
  permit: 'permits',
  plan: 'planning',
  plans: 'planning',
  השבחה: 'betterment_levy',
  פיצוי: 'compensation',
  היתר: 'permits',
  'היתר בנייה': 'permits',
  תכנית: 'planning',
  תוכנית: 'planning',
};

/** Every value a practice-area parameter accepts, for the refusal that lists them. */
export const acceptedPracticeAreaValues: readonly string[] = [
  ...practiceAreas,
  ...Object.values(practiceAreaLabels),
  ...Object.keys(legacy),
];

const byWord = new Map<string, PracticeArea>(
  [
    ...Object.entries(practiceAreaLabels).map(([k, label]) => [label, k] as const),
    ...Object.entries(legacy),
  ].map(([word, area]) => [normalizeHebrew(word), area as PracticeArea]),
);

/** The practice area a value names (canonical, Hebrew label or legacy word), or null. */
export function parsePracticeArea(value: string): PracticeArea | null {
  const v = value
    .trim()
    .toLowerCase()
    .replaceAll(/[\s-]+/g, '_');
  if ((practiceAreas as readonly string[]).includes(v)) return v as PracticeArea;
  return byWord.get(normalizeHebrew(value)) ?? null;
}

/** A practice-area parameter: any accepted value, mapped by `practiceAreaOf` (which refuses the rest). */
export const practiceAreaInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('betterment_levy | compensation | permits | planning (or היטל השבחה, פיצויים, היתרים, תכנון)');

/** The practice area of a parameter's value, or invalid_args listing the accepted values. */
export function practiceAreaOf(value: string, path = 'practice_area'): PracticeArea {
  const area = parsePracticeArea(value);
  if (area === null) {
    throw invalidArgs(
      [{ path, message: `"${value}" is not a practice area` }],
      `Use one of: ${acceptedPracticeAreaValues.join(', ')}.`,
      { details: { accepted: acceptedPracticeAreaValues } },
    );
  }
  return area;
}
