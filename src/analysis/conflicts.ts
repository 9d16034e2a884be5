// The appraisers' facts side by side: grouped by kind (and name) and subject (parcel, plan), and the conflicts
// among them: the same kind and subject with values from different appraisers that differ by more than a
// tolerance. A fact whose appraisal names no parcel (or plan) joins the one group it can belong to.

import type { AppraiserRole, FactKind, FactUnit } from '../db/schema/analysis.ts';
import { formatShekels } from '../legal/money.ts';
import { daysToIso } from './appraisal.ts';

export interface FactRow {
  id: string;
  kind: FactKind;
  name: string | null;
  value: number;
  unit: FactUnit;
  appraiserName: string | null;
  appraiserRole: AppraiserRole;
  parcel: string | null;
  plan: string | null;
  note: string | null;
  documentId: string;
  page: number;
}

export interface FactGroup<F extends FactRow> {
  kind: FactKind;
  name: string | null;
  parcel: string | null;
  plan: string | null;
  facts: F[];
}

export interface Conflict<F extends FactRow> {
  group: FactGroup<F>;
  /** One fact per appraiser (its first in document order), the deciding appraiser's first. */
  sides: F[];
  /** max − min in the unit (days for dates). */
  absolute: number;
  /** absolute ÷ the largest magnitude; null for dates. */
  relative: number | null;
}

/** A value as people read it: 1,250,000 ₪, 620 מ"ר, 85%, 2021-03-14. */
export function displayValue(value: number, unit: FactUnit): string {
  switch (unit) {
    case 'agorot':
      return formatShekels(value);
    case 'sqm':
      return `${value.toLocaleString('en-US')} מ"ר`;
    case 'percent':
      return `${value}%`;
    case 'date':
      return daysToIso(value);
  }
}

/** The value as a tool returns it: an ISO date for dates, the number otherwise. */
export const valueOut = (value: number, unit: FactUnit): number | string =>
  unit === 'date' ? daysToIso(value) : value;

const groupKey = (f: { kind: string; name: string | null }) => `${f.kind}\u0000${f.name ?? ''}`;

/** Facts grouped by kind, name and subject, in the order of their first fact. */
export function groupFacts<F extends FactRow>(facts: readonly F[]): FactGroup<F>[] {
  const groups: FactGroup<F>[] = [];
  const pending: F[] = [];
  for (const f of facts) {
    if (f.parcel === null || f.plan === null) {
      pending.push(f);
      continue;
    }
    let g = groups.find((x) => groupKey(x) === groupKey(f) && x.parcel === f.parcel && x.plan === f.plan);
    if (g === undefined) {
      g = { kind: f.kind, name: f.name, parcel: f.parcel, plan: f.plan, facts: [] };
      groups.push(g);
    }
    g.facts.push(f);
  }
  // A fact without a parcel or plan joins the only compatible group; otherwise it is a group of its own.
  for (const f of pending) {
    const fits = groups.filter(
      (g) =>
        groupKey(g) === groupKey(f) &&
        (f.parcel === null || g.parcel === f.parcel) &&
        (f.plan === null || g.plan === f.plan),
    );
    const only = fits.length === 1 ? fits[0] : undefined;
    if (only !== undefined) only.facts.push(f);
    else {
      const same = groups.find(
        (g) => groupKey(g) === groupKey(f) && g.parcel === f.parcel && g.plan === f.plan,
      );
      if (same !== undefined) same.facts.push(f);
      else groups.push({ kind: f.kind, name: f.name, parcel: f.parcel, plan: f.plan, facts: [f] });
    }
  }
  return groups;
}

/** Whose figures lead a conflict: the deciding appraiser's, then the advisory one's, then the parties'. */
const ROLE_ORDER: Record<AppraiserRole, number> = {
  deciding: 0,
  advisory: 1,
  decision: 2,
  committee: 3,
  appellants: 4,
  other: 5,
};

const appraiserOf = (f: FactRow) => `${f.appraiserRole}\u0000${f.appraiserName ?? f.documentId}`;

/**
 * The conflicts of the groups: two or more appraisers whose values differ by more than `tolerance` (a
 * fraction of the larger magnitude; 0 = any difference). Dates compare exactly.
 */
export function findConflicts<F extends FactRow>(
  groups: readonly FactGroup<F>[],
  tolerance = 0,
): Conflict<F>[] {
  const out: Conflict<F>[] = [];
  for (const group of groups) {
    const sides: F[] = [];
    for (const f of group.facts) if (!sides.some((s) => appraiserOf(s) === appraiserOf(f))) sides.push(f);
    if (sides.length < 2) continue;
    sides.sort((a, b) => ROLE_ORDER[a.appraiserRole] - ROLE_ORDER[b.appraiserRole]);
    const values = sides.map((s) => s.value);
    const max = Math.max(...values);
    const min = Math.min(...values);
    const absolute = max - min;
    if (absolute === 0) continue;
    const unit = group.facts[0]?.unit;
    const scale = Math.max(Math.abs(max), Math.abs(min));
    const relative = unit === 'date' || scale === 0 ? null : absolute / scale;
    if (relative !== null && relative <= tolerance) continue;
    out.push({
      group,
      sides,
      absolute,
      relative: relative === null ? null : Math.round(relative * 1e4) / 1e4,
    });
  }
  return out;
}
