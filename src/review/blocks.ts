// The kinds of block a decision is made of, in the order they stand, and which of them a decision needs.
export const blockKinds = [
  'header',
  'background',
  'appellant_claims',
  'respondent_claims',
  'discussion',
  'outcome',
  'costs',
  'signature',
] as const;
export type BlockKind = (typeof blockKinds)[number];
