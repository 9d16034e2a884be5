// The references of a document, by rule: statutes, their sections (and schedules), regulations, plans and
// parcels, each with a canonical key and where it is written. Read in document order, because a section
// with a bare «לחוק» (or none) belongs to the statute named last before it, else to the Planning and
// Building Law; a bare «לתקנות» to the regulations named last (none named: left out rather than guessed).
import type { ReferenceKind } from '../db/schema/analysis.ts';
import { findParcels, parcelKeys } from '../legal/parcels.ts';
import { findPlans } from '../legal/plans.ts';
import {
  type FoundStatute,
  findNamedStatutes,
  findSchedules,
  findSections,
  findStatutes,
  PLANNING_LAW,
} from '../legal/statutes.ts';
import { plainText } from './layout.ts';

export interface ReferenceCandidate {
  kind: ReferenceKind;
  key: string;
  /** 1-based page. */
  page: number;
  start: number;
  end: number;
  text: string;
}

interface Placed<T> {
  page: number;
  item: T;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

/** Before in document order: an earlier page, or earlier on the same page. */
const before = (a: { page: number; at: number }, b: { page: number; at: number }) =>
  a.page < b.page || (a.page === b.page && a.at < b.at);

/** The references of a document, in order; read without niqqud, with offsets into the pages as given. */
export function extractReferences(pages: readonly string[]): ReferenceCandidate[] {
  const plain = pages.map((p) => plainText(p));
  return referencesOfPlain(plain.map((p) => p.text)).map((r) => {
    const map = plain[r.page - 1];
    const start = map?.at(r.start) ?? r.start;
    const end = map?.at(r.end) ?? r.end;
    return { ...r, start, end, text: (pages[r.page - 1] ?? '').slice(start, end) };
  });
}

function referencesOfPlain(pages: readonly string[]): ReferenceCandidate[] {
  const out: ReferenceCandidate[] = [];
  const full = pages.flatMap((text, i) => findStatutes(text).map((item) => ({ page: i + 1, item })));
  // A statute named with its year anywhere in the document (and the Planning and Building Law) is also
  // recognised by its name alone.
  const known = new Map<string, Pick<FoundStatute, 'kind' | 'key' | 'name' | 'year'>>();
  known.set(PLANNING_LAW.key, { ...PLANNING_LAW, kind: 'statute' });
  for (const { item } of full) known.set(item.key, item);
  const statutes: Placed<FoundStatute>[] = [...full];
  pages.forEach((text, i) => {
    for (const item of findNamedStatutes(text, [...known.values()])) {
      const clash = statutes.some((s) => s.page === i + 1 && overlaps(s.item, item));
      if (!clash) statutes.push({ page: i + 1, item });
    }
  });
  statutes.sort((a, b) => a.page - b.page || a.item.start - b.item.start);
  for (const { page, item } of statutes) {
    out.push({ kind: item.kind, key: item.key, page, start: item.start, end: item.end, text: item.text });
  }

  /** The statute (or regulations) named last before a point, of a kind. */
  const lastNamed = (kind: FoundStatute['kind'], page: number, at: number) => {
    let found: FoundStatute | undefined;
    for (const s of statutes) {
      if (s.item.kind === kind && before({ page: s.page, at: s.item.start }, { page, at })) found = s.item;
    }
    return found;
  };
  const statuteAt = (page: number, at: number) =>
    statutes.find((s) => s.page === page && s.item.start === at)?.item;

  pages.forEach((text, i) => {
    const page = i + 1;
    const sections = findSections(text);
    for (const section of sections) {
      const kind = section.of === 'regulations' ? 'regulation' : 'statute';
      const owner =
        (section.follows !== null ? statuteAt(page, section.after) : undefined) ??
        lastNamed(kind, page, section.start) ??
        (kind === 'statute' ? { key: PLANNING_LAW.key } : undefined);
      if (owner === undefined) continue;
      const word = kind === 'regulation' ? 'תקנה' : "ס'";
      const scope = section.schedule === null ? owner.key : `${owner.key} ${section.schedule}`;
      for (const p of section.paths) {
        out.push({
          kind: 'section',
          key: `${scope} ${word} ${p.path}`,
          page,
          start: p.start,
          end: p.end,
          text: p.text,
        });
      }
    }
    for (const schedule of findSchedules(text)) {
      // «סעיף 4 לתוספת השלישית» was read with its section; only a schedule named by itself is a reference here.
      const inSection = sections.some((s) => s.end <= schedule.start && schedule.start < s.after);
      if (inSection) continue;
      const follows = /^\s*(?:ל|של\s+)חוק/.exec(text.slice(schedule.end, schedule.end + 10));
      const owner =
        (follows !== null ? statuteAt(page, schedule.end + follows[0].length - 3) : undefined) ??
        lastNamed('statute', page, schedule.start) ??
        PLANNING_LAW;
      const { start, end } = schedule;
      out.push({
        kind: 'section',
        key: `${owner.key} ${schedule.name}`,
        page,
        start,
        end,
        text: schedule.text,
      });
    }
    for (const plan of findPlans(text)) {
      out.push({ kind: 'plan', key: plan.key, page, start: plan.start, end: plan.end, text: plan.text });
    }
    for (const parcel of findParcels(text)) {
      for (const key of parcelKeys(parcel)) {
        out.push({ kind: 'parcel', key, page, start: parcel.start, end: parcel.end, text: parcel.text });
      }
    }
  });
  return out.sort((a, b) => a.page - b.page || a.start - b.start || a.key.localeCompare(b.key));
}
