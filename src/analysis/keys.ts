// A reference key as an agent may type it, to the canonical key the extractor stores: a statute as cited (with
// or without its year), a plan in any spelling, a block and parcel, or a key copied from reference_list.
import { normalizeParcel } from '../legal/parcels.ts';
import { normalizePlan } from '../legal/plans.ts';
import { findStatutes } from '../legal/statutes.ts';
import { canonicalName } from '../legal/text.ts';

export function canonicalKey(written: string): string {
  const text = written.trim();
  const statute = findStatutes(text)[0];
  if (statute !== undefined && statute.start === 0 && statute.end === text.length) return statute.key;
  const plan = normalizePlan(text);
  if (plan !== null) return plan;
  const parcels = normalizeParcel(text);
  if (parcels?.length === 1 && parcels[0] !== undefined) return parcels[0];
  // Keys keep the section word ס' and the plans' quote mark as the extractor writes them.
  return canonicalName(text.replace(/ס[׳’']/g, 'ס__').replace(/"/g, '__Q'))
    .replace(/ס__/g, "ס'")
    .replace(/__Q/g, '"');
}
