// Coverage tiers of the ranked search (rank.ts): «at least k of the query's words» as one full-text query.

/** Coverage tiers are searched as GIN queries («at least k of the words») up to this many query words. */
export const TIER_MAX_WORDS = 6;
/** …and while no tier's query needs more alternatives than this (each a conjunction of words or expansions). */
const TIER_MAX_ALTERNATIVES = 32;

/**
 * The query's coverage groups, as the per-word lookups count them: a word alone, or a thesaurus expansion's
 * span (its words, and the expansion worth them all). A group's score is the most of (the weights of its words
 * present, the expansion's weight if present); coverage is the sum over groups.
 */
export interface CoverageGroup {
  words: { tsq: string; weight: number }[];
  expansion?: { tsq: string; weight: number };
}

/** The alternatives (each a conjunction of lookups) for «coverage ≥ k», or null when there are too many. */
export function atLeast(groups: readonly CoverageGroup[], k: number): string[][] | null {
  let combos: { conds: string[]; value: number }[] = [{ conds: [], value: 0 }];
  for (const g of groups) {
    const options: { conds: string[]; value: number }[] = [];
    for (let mask = 0; mask < 1 << g.words.length; mask++) {
      const chosen = g.words.filter((_, i) => (mask >> i) & 1);
      options.push({ conds: chosen.map((w) => w.tsq), value: chosen.reduce((s, w) => s + w.weight, 0) });
    }
    if (g.expansion !== undefined) options.push({ conds: [g.expansion.tsq], value: g.expansion.weight });
    combos = combos.flatMap((c) =>
      options.map((o) => ({ conds: [...c.conds, ...o.conds], value: c.value + o.value })),
    );
    if (combos.length > 4096) return null;
  }
  const enough = combos.filter((c) => c.value >= k).map((c) => [...new Set(c.conds)].sort());
  // Only the minimal ones: an alternative that has all of another's conditions finds nothing more.
  const minimal = enough.filter(
    (c, i) =>
      !enough.some(
        (o, j) =>
          j !== i && o.length <= c.length && o.every((x) => c.includes(x)) && (o.length < c.length || j < i),
      ),
  );
  return minimal.length > TIER_MAX_ALTERNATIVES ? null : minimal;
}

export const alternativesTsquery = (alternatives: readonly string[][]) =>
  alternatives.map((a) => `(${a.map((x) => `(${x})`).join(' & ')})`).join(' | ');
