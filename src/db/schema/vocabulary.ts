// The precedent library's closed vocabularies, shared by its schema, rules and tools.

/** The three canonical outcomes of a ruling or decision (נדחה / התקבל / התקבל בחלקו). */
export const outcomes = ['rejected', 'accepted', 'partially_accepted'] as const;
export type Outcome = (typeof outcomes)[number];

/** The committee's practice areas, read from what a decision is about. */
export const practiceAreas = ['betterment_levy', 'compensation', 'permits', 'planning'] as const;
export type PracticeArea = (typeof practiceAreas)[number];

/** The metadata fields of a ruling or decision; each is `given` by the uploader or `extracted` by rule. */
export const metadataFields = [
  'court',
  'proceeding',
  'number',
  'decision_date',
  'judges',
  'parties',
  'outcome',
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
