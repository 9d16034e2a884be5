// The practice area as the tools take it: the vocabulary and its Hebrew labels (src/db/schema/vocabulary.ts),
// and on input the free-text words cases were opened with before ("betterment levy", "permit", "plan"…).
import * as z from 'zod';
import { type PracticeArea, practiceAreaLabels, practiceAreas } from '../db/schema/vocabulary.ts';
import { vocabularyInput } from './vocabulary_input.ts';

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

const areaWords = vocabularyInput({
  values: practiceAreas,
  labels: practiceAreaLabels,
  legacy,
  noun: 'a practice area',
});

/** Every value a practice-area parameter accepts, for the refusal that lists them. */
export const acceptedPracticeAreaValues: readonly string[] = areaWords.accepted;

/** The practice area a value names (canonical, Hebrew label or legacy word), or null. */
export const parsePracticeArea = (value: string): PracticeArea | null => areaWords.parse(value);

/** A practice-area parameter: any accepted value, mapped by `practiceAreaOf` (which refuses the rest). */
export const practiceAreaInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('betterment_levy | compensation | permits | planning (or היטל השבחה, פיצויים, היתרים, תכנון)');

/** The practice area of a parameter's value, or invalid_args listing the accepted values. */
export const practiceAreaOf = (value: string, path = 'practice_area'): PracticeArea =>
  areaWords.of(value, path);
