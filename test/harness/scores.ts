// Recall and precision of an extractor against the precedent library fixture's answers, as the rule tests and
// the tool tests measure them: found and wanted items as (page, text with whitespace collapsed), exact matches.
export const ws = (s: string) => s.replace(/\s+/g, ' ').trim();

export interface Score {
  tp: number;
  fp: number;
  fn: number;
  recall: number;
  precision: number;
}

/** Found against wanted, both as (page, text with whitespace collapsed): exact matches only. */
export function score(
  found: { page: number; text: string }[],
  wanted: { page: number; text: string }[],
): Score {
  const key = (h: { page: number; text: string }) => `${h.page}|${ws(h.text)}`;
  const want = new Set(wanted.map(key));
  const got = new Set(found.map(key));
  const tp = [...got].filter((k) => want.has(k)).length;
  const fp = got.size - tp;
  const fn = want.size - tp;
  return { tp, fp, fn, recall: tp / (tp + fn || 1), precision: tp / (tp + fp || 1) };
}
