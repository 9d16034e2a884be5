// The references of a document, by rule: statutes, their sections (and schedules), regulations, plans and
// parcels, each with a canonical key and where it is written. Read in document order, because a section
// with a bare «לחוק» (or none) belongs to the statute named last before it, else to the Planning and
// Building Law; a bare «לתקנות» to the regulations named last (none named: left out rather than guessed).
import type { ReferenceKind } from '../db/schema/analysis.ts';
import { ownerOf, readStatutes, scheduleByContext } from '../legal/attribution.ts';
import { findParcels, parcelKeys } from '../legal/parcels.ts';
import { barePlanAliases, findPlans } from '../legal/plans.ts';
import { type FoundSection, findSchedules, findSections, PLANNING_LAW } from '../legal/statutes.ts';
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

/** A section's key: its statute (none when unattributed), its schedule, the provision word and its path. */
const sectionKey = (owner: string | null, schedule: string | null, word: string, path: string) =>
  `${owner === null ? '' : schedule === null ? `${owner} ` : `${owner} ${schedule} `}${word} ${path}`;

function referencesOfPlain(pages: readonly string[]): ReferenceCandidate[] {
  const out: ReferenceCandidate[] = [];
  const statutes = readStatutes(pages);
  for (const { page, item } of statutes.found) {
    out.push({ kind: item.kind, key: item.key, page, start: item.start, end: item.end, text: item.text });
  }
  const { lastNamed, statuteAt } = statutes;
  const bareSections: { index: number; path: string; schedule: string | null }[] = [];
  const aliases = barePlanAliases(
    pages.flatMap((text) => findPlans(text).map((p) => p.key)),
    pages.flatMap((text) => findParcels(text).map((p) => p.block)),
  );

  pages.forEach((text, i) => {
    const page = i + 1;
    const sections = findSections(text);
    let previous: FoundSection | undefined;
    for (const section of sections) {
      const prior = previous;
      previous = section;
      if (section.ofOther) continue;
      // «הוראת סעיף 13» right after «סעיף 11 לתמ"א 38», no statute between: the same plan's provision.
      if (
        section.follows === null &&
        prior?.ofOther === true &&
        section.start - prior.end < 400 &&
        !statutes.found.some(
          (s) => s.page === page && s.item.start > prior.end && s.item.start < section.start,
        )
      ) {
        section.ofOther = true;
        continue;
      }
      const kind = section.of === 'regulations' ? 'regulation' : 'statute';
      const owner = ownerOf(section, page, kind, statutes);
      const word = kind === 'regulation' ? 'תקנה' : "ס'";
      const schedule = section.schedule ?? scheduleByContext(section, pages, page, owner);
      const bare =
        owner === PLANNING_LAW.key &&
        section.schedule === null &&
        section.follows === null &&
        !section.bareSchedule;
      for (const p of section.paths) {
        const key = sectionKey(owner, schedule, word, p.path);
        if (bare) bareSections.push({ index: out.length, path: p.path, schedule });
        out.push({ kind: 'section', key, page, start: p.start, end: p.end, text: p.text });
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
      const alias = aliases.get(plan.key);
      if (alias === null) continue;
      const key = alias ?? plan.key;
      out.push({ kind: 'plan', key, page, start: plan.start, end: plan.end, text: plan.text });
    }
    for (const parcel of findParcels(text)) {
      for (const key of parcelKeys(parcel)) {
        out.push({ kind: 'parcel', key, page, start: parcel.start, end: parcel.end, text: parcel.text });
      }
    }
  });
  // A bare section the context put in a schedule once is that schedule's wherever else it is written bare.
  for (const b of bareSections) {
    const schedule = bareSections.find((o) => o.path === b.path && o.schedule !== null)?.schedule;
    const ref = out[b.index];
    if (b.schedule === null && typeof schedule === 'string' && ref !== undefined)
      ref.key = sectionKey(PLANNING_LAW.key, schedule, "ס'", b.path);
  }
  return out.sort((a, b) => a.page - b.page || a.start - b.start || a.key.localeCompare(b.key));
}
