// The appraisal reader on the held-out appraisals (test/fixtures/appraisals/held_out/, answers frozen before
// the rules were tuned): a deciding appraisal in prose, the appellants' bullet list with «שח», the committee's
// Word document with a summary table (built here with the docx library) and a compensation case. Prints
// recall and precision of the facts and holds them to the goal; the deciding appraiser leads each conflict.
import { readFile } from 'node:fs/promises';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { describe, expect, it } from 'vitest';
import { daysToIso, extractFacts, findAppraiser } from '../../src/analysis/appraisal.ts';
import { type FactRow, findConflicts, groupFacts } from '../../src/analysis/conflicts.ts';
import type { DocumentRole } from '../../src/db/schema/documents.ts';
import { extractPages } from '../../src/documents/pages.ts';

const dir = new URL('../fixtures/appraisals/held_out/', import.meta.url);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

type Expected = [string, string | null, number | string];
interface Answers {
  documents: Record<string, { role: DocumentRole; appraiser: [string, string]; facts: Expected[] }>;
}

const answers = JSON.parse(await readFile(new URL('answers.json', dir), 'utf8')) as Answers;

const p = (text: string) =>
  new Paragraph({ bidirectional: true, children: [new TextRun({ text, rightToLeft: true })] });

/** The committee's appraisal as Word writes it: its paragraphs, then the summary table. */
async function committeeDocx(): Promise<string[]> {
  const spec = JSON.parse(await readFile(new URL('committee_docx.json', dir), 'utf8')) as {
    paragraphs: string[];
    table: string[][];
  };
  const table = new Table({
    rows: spec.table.map(
      (cells) => new TableRow({ children: cells.map((c) => new TableCell({ children: [p(c)] })) }),
    ),
  });
  const doc = new Document({ sections: [{ children: [...spec.paragraphs.map(p), table] }] });
  return extractPages(new Uint8Array(await Packer.toBuffer(doc)), DOCX);
}

async function pagesOf(name: string): Promise<string[]> {
  if (name === 'committee_docx') return committeeDocx();
  return [(await readFile(new URL(`${name}.txt`, dir), 'utf8')).trim()];
}

const item = (f: { kind: string; name: string | null; value: number | string }) =>
  `${f.kind}|${f.name ?? ''}|${f.value}`;

describe('appraisal reader, held out', async () => {
  const read = await Promise.all(
    Object.entries(answers.documents).map(async ([name, doc]) => {
      const pages = await pagesOf(name);
      const facts = extractFacts(pages);
      return { name, doc, pages, facts, appraiser: findAppraiser(pages, doc.role) };
    }),
  );

  it('finds the facts of every held-out appraisal (recall and precision ≥ 0.95)', () => {
    let expected = 0;
    let found = 0;
    let hit = 0;
    const lines: string[] = [];
    for (const r of read) {
      const want = r.doc.facts.map(([kind, name, value]) => item({ kind, name, value }));
      const got = r.facts.map((f) => item({ ...f, value: f.unit === 'date' ? daysToIso(f.value) : f.value }));
      const left = [...got];
      for (const w of want) {
        const i = left.indexOf(w);
        if (i < 0) lines.push(`${r.name} miss ${w}`);
        else {
          hit++;
          left.splice(i, 1);
        }
      }
      for (const s of left) lines.push(`${r.name} spurious ${s}`);
      expected += want.length;
      found += got.length;
    }
    const recall = hit / expected;
    const precision = hit / found;
    console.log(
      `held-out appraisal facts: recall ${recall.toFixed(3)} (${hit}/${expected}), precision ${precision.toFixed(3)} (${hit}/${found})`,
      ...lines.map((l) => `\n  ${l}`),
    );
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(precision).toBeGreaterThanOrEqual(0.95);
  });

  it('names each appraiser and role', () => {
    for (const r of read) {
      expect([r.name, r.appraiser.name, r.appraiser.role]).toEqual([r.name, ...r.doc.appraiser]);
    }
  });

  it('sets the deciding appraiser’s figures beside the parties’, the deciding one first', () => {
    const rows: FactRow[] = read
      .filter((r) => r.name !== 'compensation')
      .flatMap((r) =>
        r.facts.map((f, i) => ({
          ...f,
          id: `${r.name}-${i}`,
          appraiserName: r.appraiser.name,
          appraiserRole: r.appraiser.role,
          documentId: r.name,
        })),
      );
    const conflicts = findConflicts(groupFacts(rows));
    const prior = conflicts.find((c) => c.group.kind === 'value_prior');
    expect(prior?.sides.map((s) => [s.appraiserRole, s.value])).toEqual([
      ['deciding', 315_000_000],
      ['committee', 290_000_000],
      ['appellants', 360_000_000],
    ]);
    expect(conflicts.map((c) => c.group.kind)).toEqual(
      expect.arrayContaining(['value_prior', 'value_new', 'betterment', 'levy', 'coefficient']),
    );
  });
});
