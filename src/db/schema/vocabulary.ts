// The closed vocabularies the cases and the precedent library share, with their schema, rules and tools.

/**
 * The three outcomes of an appeal: the committee's decision on a case, and a court's ruling or a past
 * decision in the library, in the same words. Older values are mapped on input only (src/cases/outcomes.ts).
 */
export const outcomes = ['rejection', 'partial_acceptance', 'full_acceptance'] as const;
export type Outcome = (typeof outcomes)[number];

/** Each outcome's Hebrew label. */
export const outcomeLabels: Readonly<Record<Outcome, string>> = {
  rejection: 'דחייה',
  partial_acceptance: 'קבלה חלקית',
  full_acceptance: 'קבלה מלאה',
};

/**
 * The committee's practice areas: a case's, and a ruling's or decision's (read from what it is about). Older
 * free-text values are mapped on input only (src/cases/practice_areas.ts).
 */
export const practiceAreas = ['betterment_levy', 'compensation', 'permits', 'planning'] as const;
export type PracticeArea = (typeof practiceAreas)[number];

/** Each practice area's Hebrew label. */
export const practiceAreaLabels: Readonly<Record<PracticeArea, string>> = {
  betterment_levy: 'היטל השבחה',
  compensation: 'פיצויים',
  permits: 'היתרים',
  planning: 'תכנון',
};

/** The metadata fields of a ruling or decision; each is `given` by the uploader or `extracted` by rule. */
export const metadataFields = [
  'court',
  'proceeding',
  'number',
  'decision_date',
  'judges',
  'parties',
  'outcome',
  /** The outcome of the decision under review (the one appealed or petitioned against), as recited. */
  'prior_outcome',
  'practice_area',
] as const;
export type MetadataField = (typeof metadataFields)[number];

export const fieldSources = ['given', 'extracted'] as const;
export type FieldSource = (typeof fieldSources)[number];

/** How a citing passage treats what it cites (as the commercial citators classify it), by rule. */
export const treatments = [
  'relied_on',
  'distinguished',
  'criticised',
  'overruled_or_reversed',
  'mentioned',
] as const;
export type Treatment = (typeof treatments)[number];
/** Treatments that put a document's authority in doubt (the negative-treatment flag). */
export const negativeTreatments: readonly Treatment[] = ['overruled_or_reversed', 'criticised'];

export const missingStatuses = ['open', 'closed'] as const;
export const missingResolutions = ['found', 'dismissed'] as const;
export type MissingResolution = (typeof missingResolutions)[number];
