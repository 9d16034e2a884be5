// A decision's own sums as facts: the labelled-amounts rule (src/legal/amounts.ts) read through the fact reader,
// so a decision's levy, compensation and claimed sums stand beside the appraisers' figures.
import type { FactKind } from '../db/schema/analysis.ts';
import { type AmountLabel, findAmounts } from '../legal/amounts.ts';
import { findParcels, parcelKeys } from '../legal/parcels.ts';
import { findPlans } from '../legal/plans.ts';
import type { FactCandidate } from './appraisal.ts';
import { UNIT } from './appraisal_cues.ts';
import { plainText } from './layout.ts';

const DECISION_KIND: Record<AmountLabel, FactKind> = {
  levy: 'levy',
  compensation: 'compensation',
  claim: 'claimed',
};

/**
 * The sums a decision states, by the labelled-amounts rule (src/legal/amounts.ts): the levy demanded or set,
 * the compensation awarded, a sum a party claimed; a sum the rule gives no label (or leaves out: costs, other
 * levies) is not a fact. Each is about the decision's first parcel and plan, as an appraisal's facts are.
 */
export function extractDecisionFacts(pages: readonly string[]): FactCandidate[] {
  const plain = pages.map((p) => plainText(p));
  const firstKey = (keys: (text: string) => string | undefined) => {
    for (const p of plain) {
      const key = keys(p.text);
      if (key !== undefined) return key;
    }
    return null;
  };
  const plan = firstKey((t) => findPlans(t)[0]?.key);
  const parcel = firstKey((t) => {
    const first = findParcels(t)[0];
    return first === undefined ? undefined : parcelKeys(first).join(', ');
  });
  return plain.flatMap((p, i) =>
    findAmounts(p.text).flatMap((a) => {
      if (a.label === null) return [];
      const start = p.at(a.start);
      const end = p.at(a.end);
      const kind = DECISION_KIND[a.label];
      return [
        {
          kind,
          name: null,
          value: a.agorot,
          unit: UNIT[kind],
          parcel,
          plan,
          note: null,
          page: i + 1,
          start,
          end,
          text: (pages[i] ?? '').slice(start, end),
        },
      ];
    }),
  );
}
