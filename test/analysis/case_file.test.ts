// The analysis rules against the case file fixture's known answers (test/fixtures/case_file/answers.json):
// recall and precision per kind of reference, claim and fact, the appraisers and the documents' roles, and the
// conflicts among the appraisals; the same findings from the PDF and DOCX versions as from the text. The
// figures are printed; the target is every planted item found and nothing else (1.0 and 1.0).
import { describe, expect, it } from 'vitest';
import { daysToIso, extractFacts, findAppraiser } from '../../src/analysis/appraisal.ts';
import { extractClaims } from '../../src/analysis/claims.ts';
import { type FactRow, findConflicts, groupFacts } from '../../src/analysis/conflicts.ts';
import { extractReferences } from '../../src/analysis/references.ts';
import { detectRole } from '../../src/analysis/roles.ts';
import { extractPages } from '../../src/documents/pages.ts';
import {
  type CaseFileName,
  caseFileAnswers,
  caseFileBytes,
  caseFileNames,
  caseFilePages,
} from '../fixtures/case_file/case_file.ts';

const MEDIA = {
  txt: 'text/plain',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;

interface Tally {
  expected: string[];
  found: string[];
}

/** Recall and precision of a multiset of findings against the expected ones. */
function score(t: Tally) {
  const left = [...t.expected];
  let hits = 0;
  for (const f of t.found) {
    const i = left.indexOf(f);
    if (i >= 0) {
      left.splice(i, 1);
      hits++;
    }
  }
  const extra = t.found.filter((f) => !t.expected.includes(f));
  return {
    recall: t.expected.length === 0 ? 1 : hits / t.expected.length,
    precision: t.found.length === 0 ? 1 : hits / t.found.length,
    missed: left,
    extra,
  };
}

/** Everything the rules find in the case file, keyed by kind ("reference:plan", "claim:relief", …). */
async function analyse(pagesOf: (name: CaseFileName) => Promise<string[]>) {
  const tallies = new Map<string, Tally>();
  const tally = (kind: string) => {
    let t = tallies.get(kind);
    if (t === undefined) {
      t = { expected: [], found: [] };
      tallies.set(kind, t);
    }
    return t;
  };
  const facts: FactRow[] = [];
  for (const name of caseFileNames) {
    const pages = await pagesOf(name);
    const want = caseFileAnswers.documents[name];
    const role = detectRole(pages[0] ?? '');
    tally('role').expected.push(`${name}|${want.role}`);
    tally('role').found.push(`${name}|${role}`);
    for (const [kind, key, text, page] of want.references) {
      tally(`reference:${kind}`).expected.push(`${name}|${key}|${text}|${page}`);
    }
    for (const r of extractReferences(pages)) {
      expect(pages[r.page - 1]?.slice(r.start, r.end), 'offsets point at the text').toBe(r.text);
      tally(`reference:${r.kind}`).found.push(`${name}|${r.key}|${r.text.replace(/\s+/g, ' ')}|${r.page}`);
    }
    for (const [party, kind, label, page] of want.claims ?? []) {
      tally(`claim:${kind}`).expected.push(`${name}|${party}|${label}|${page}`);
    }
    for (const c of extractClaims(pages, role)) {
      expect(pages[c.page - 1]?.slice(c.start, c.end)).toBe(c.text);
      tally(`claim:${c.kind}`).found.push(`${name}|${c.party}|${c.label}|${c.page}`);
    }
    if (want.appraiser !== undefined) {
      tally('appraiser').expected.push(`${name}|${want.appraiser.join('|')}`);
      const a = findAppraiser(pages, role);
      tally('appraiser').found.push(`${name}|${a.name}|${a.role}`);
      for (const [kind, factName, value, unit, note] of want.facts ?? []) {
        tally(`fact:${kind}`).expected.push(`${name}|${factName}|${value}|${unit}|${note ?? null}`);
      }
      for (const f of extractFacts(pages)) {
        expect(pages[f.page - 1]?.slice(f.start, f.end)).toBe(f.text);
        const value = f.unit === 'date' ? daysToIso(f.value) : f.value;
        tally(`fact:${f.kind}`).found.push(`${name}|${f.name}|${value}|${f.unit}|${f.note}`);
        facts.push({
          ...f,
          id: `${name}:${facts.length}`,
          documentId: name,
          appraiserName: a.name,
          appraiserRole: a.role,
        });
      }
    }
  }
  return { tallies, facts };
}

describe('the case file fixture: what the rules find', () => {
  it('finds every planted reference, claim, relief request, appraiser, fact and role, and nothing else', async () => {
    const { tallies } = await analyse(caseFilePages);
    const rows: string[] = [];
    for (const [kind, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
      const s = score(t);
      rows.push(
        `${kind.padEnd(28)} expected ${String(t.expected.length).padStart(3)}  found ${String(t.found.length).padStart(3)}  recall ${s.recall.toFixed(2)}  precision ${s.precision.toFixed(2)}`,
      );
      expect({ kind, missed: s.missed, extra: s.extra }).toEqual({ kind, missed: [], extra: [] });
    }
    console.log(`case file fixture, per kind:\n${rows.join('\n')}`);
    // Every kind the issue names is planted at least once.
    for (const kind of ['statute', 'section', 'regulation', 'plan', 'parcel']) {
      expect(tallies.get(`reference:${kind}`)?.expected.length ?? 0, kind).toBeGreaterThan(0);
    }
    for (const kind of [
      'determining_date',
      'value_prior',
      'value_new',
      'betterment',
      'levy',
      'price_per_sqm',
      'area',
      'coefficient',
    ]) {
      expect(tallies.get(`fact:${kind}`)?.expected.length ?? 0, kind).toBeGreaterThan(0);
    }
  });

  it('finds the appraisers’ conflicts, and fewer within a 10% tolerance', async () => {
    const { facts } = await analyse(caseFilePages);
    const groups = groupFacts(facts);
    const names = (tolerance: number) =>
      findConflicts(groups, tolerance)
        .map((c) => `${c.group.kind}|${c.group.name}`)
        .sort();
    const expected = (list: [string, string | null][]) => list.map(([k, n]) => `${k}|${n}`).sort();
    expect(names(0)).toEqual(expected(caseFileAnswers.conflicts));
    expect(names(0.1)).toEqual(expected(caseFileAnswers.conflicts_within_10_percent));
    // The plot area is the same in all three appraisals: one group, no conflict.
    const area = groups.find((g) => g.kind === 'area');
    expect(area?.facts).toHaveLength(3);
    const date = findConflicts(groups).find((c) => c.group.kind === 'determining_date');
    expect(date?.relative).toBeNull();
    expect(date?.absolute).toBe(870); // 14.3.2021 → 1.8.2023
  });

  it('reads the same from the PDF and DOCX versions as from the text', async () => {
    const fromText = await analyse(caseFilePages);
    for (const ext of ['pdf', 'docx'] as const) {
      const other = await analyse(async (name) => extractPages(await caseFileBytes(name, ext), MEDIA[ext]));
      for (const [kind, t] of fromText.tallies) {
        expect(
          other.tallies.get(kind)?.found.map((f) => f.replace(/\s+/g, ' ')),
          `${kind} (${ext})`,
        ).toEqual(t.found);
      }
    }
  });
});
