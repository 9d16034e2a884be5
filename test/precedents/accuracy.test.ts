// The precedent extractors measured against the library fixture's answers, in each of its formats: the
// metadata per field, the citations (normalised key) and their treatment. Recall and precision must each be
// at least 95%; the figures are printed on every run.
import { describe, expect, it } from 'vitest';
import { metadataFields } from '../../src/db/schema/vocabulary.ts';
import { extractPages } from '../../src/documents/pages.ts';
import { extractCitations } from '../../src/precedents/citations.ts';
import { extractMetadata } from '../../src/precedents/metadata.ts';
import { libraryAnswers, libraryBytes, libraryPages } from '../fixtures/library/library.ts';

const MEDIA = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
} as const;
const FORMATS = ['txt', 'pdf', 'docx'] as const;
const BAR = 0.95;

interface Score {
  tp: number;
  extracted: number;
  expected: number;
}
const score = (): Score => ({ tp: 0, extracted: 0, expected: 0 });
const recall = (s: Score) => (s.expected === 0 ? 1 : s.tp / s.expected);
const precision = (s: Score) => (s.extracted === 0 ? 1 : s.tp / s.extracted);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

async function pagesOf(name: string, format: (typeof FORMATS)[number]): Promise<string[]> {
  if (format === 'txt') return libraryPages(name);
  return extractPages(await libraryBytes(name, format), MEDIA[format]);
}

const decisions = Object.entries(libraryAnswers.documents);

describe('precedent extractors against the fixture answers', () => {
  for (const format of FORMATS) {
    it(`metadata, citations and treatment reach 95% recall and precision (${format})`, async () => {
      const meta = score();
      const perField = Object.fromEntries(metadataFields.map((f) => [f, score()]));
      const cites = score();
      const treatment = score();
      for (const [name, answer] of decisions) {
        const pages = await pagesOf(name, format);
        const found = extractMetadata(pages);
        for (const field of metadataFields) {
          const want = answer.meta[field];
          const got = found[field]?.value;
          const s = perField[field] as Score;
          for (const t of [meta, s]) {
            t.expected += 1;
            if (got !== undefined) t.extracted += 1;
            if (JSON.stringify(got) === JSON.stringify(want)) t.tp += 1;
          }
        }
        const extracted = extractCitations(pages, [answer.meta.number]);
        const expected = [...answer.citations];
        cites.expected += expected.length;
        treatment.expected += expected.length;
        cites.extracted += extracted.length;
        treatment.extracted += extracted.length;
        for (const c of extracted) {
          const i = expected.findIndex((e) => e.key === c.key);
          if (i === -1) continue;
          const [match] = expected.splice(i, 1);
          cites.tp += 1;
          if (match?.treatment === c.treatment) treatment.tp += 1;
        }
      }
      const line = (what: string, s: Score) =>
        `${what.padEnd(22)} recall ${pct(recall(s)).padStart(6)}  precision ${pct(precision(s)).padStart(6)}  (${s.tp}/${s.expected} expected, ${s.extracted} extracted)`;
      console.log(
        [
          `precedent extractors on the ${format} fixture (${decisions.length} documents):`,
          line('metadata (all fields)', meta),
          ...metadataFields.map((f) => line(`  ${f}`, perField[f] as Score)),
          line('citations', cites),
          line('treatment', treatment),
        ].join('\n'),
      );
      for (const [what, s] of [
        ['metadata', meta],
        ['citations', cites],
        ['treatment', treatment],
        ...metadataFields.map((f) => [f, perField[f]] as const),
      ] as const) {
        expect(recall(s as Score), `${what} recall`).toBeGreaterThanOrEqual(BAR);
        expect(precision(s as Score), `${what} precision`).toBeGreaterThanOrEqual(BAR);
      }
    });
  }

  it('names the cue of every citation the answers treat as more than mentioned', () => {
    // The answers are consistent with themselves: a cue named for a citation is written in its paragraph.
    for (const [, answer] of decisions) {
      for (const c of answer.citations) expect(c.treatment === 'mentioned' || c.cue !== null).toBe(true);
    }
  });
});
