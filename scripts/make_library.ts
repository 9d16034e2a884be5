// `node scripts/make_library.ts`: writes the precedent library's test fixture (test/fixtures/library/): ten
// rulings, ten of the committee's decisions and three style-corpus decisions as .txt (a form feed between
// pages), written from scripts/library/*.ts, with answers.json: each document's metadata, its citations with
// their treatment and cue, its holdings, the paragraphs that only summarise a party's claim (never holdings)
// and, for the style corpus, its parts. Citations are written in a varying form (every quote mark, with and
// without spaces, both year styles), so the answers test normalisation too. Then it runs
// `scripts/make_fixtures.ts library` for the PDF and DOCX versions. The output is committed.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { findDates } from '../src/legal/dates.ts';
import { normalizeProceeding } from '../src/legal/proceedings.ts';
import { internalDecisions } from './library/internal.ts';
import { rulings } from './library/rulings.ts';
import { rulings2 } from './library/rulings2.ts';
import type { DocSpec, Part, Treatment } from './library/spec.ts';
import { styleDecisions } from './library/style.ts';

/** Two rulings that are cited but never uploaded. */
const ABSENT: Record<string, string> = { X1: 'עע"מ 7777/18', X2: 'בג"ץ 4455/16' };

const docs: DocSpec[] = [...rulings, ...rulings2, ...internalDecisions, ...styleDecisions];
const byName = new Map(docs.map((d) => [d.name, d]));
const dir = new URL('../test/fixtures/library/', import.meta.url);

const keyOf = (name: string): string => {
  const key = ABSENT[name] ?? byName.get(name)?.meta.number;
  if (key === undefined) throw new Error(`unknown citation target ${name}`);
  return key;
};

/** The n-th written form of a key: quote marks, spacing and year styles vary. */
function written(key: string, n: number): string {
  const [kind = '', number = ''] = key.split(' ');
  const old = /^(\d+)\/(\d{2})$/.exec(number);
  const fullYear = old ? `${old[1]}/${Number(old[2]) > 40 ? '19' : '20'}${old[2]}` : number;
  if (kind === 'ערר') return [`ערר ${number}`, `ערר מס' ${number}`, `ערר ${fullYear}`][n % 3] as string;
  const forms = [
    `${kind} ${number}`,
    `${kind.replace('"', '״')} ${number}`,
    `${kind.replace('"', '׳׳')} ${number}`,
    `${kind.replace('"', '”')} ${number}`,
    `${kind}${number}`,
    `${kind} ${fullYear}`,
  ];
  return forms[n % forms.length] as string;
}

interface Line {
  text: string;
  part?: Part;
  block?: number;
}

const MAX_LINES = 16;
const wrapped = (line: string) => Math.max(1, Math.ceil(line.length / 66));

let variant = 0;
const answers: Record<string, unknown> = {};
const stems: string[] = [];

for (const doc of docs) {
  const citations: {
    key: string;
    written: string;
    treatment: Treatment;
    cue: string | null;
    target: string | null;
    page: number;
  }[] = [];
  const holdings: { page: number; label: string; cue: string; text: string }[] = [];
  const claimParagraphs: { page: number; label: string; text: string }[] = [];
  const lines: Line[] = [];
  const own = normalizeProceeding(doc.written);
  if (own !== doc.meta.number)
    throw new Error(`${doc.name}: its number reads as ${own}, not ${doc.meta.number}`);
  const partiesFrom = doc.header.length - (doc.partiesLines ?? 0);
  doc.header.forEach((text, i) => {
    const part: Part | undefined =
      doc.corpus === 'style' ? (i < partiesFrom ? 'header' : 'parties') : undefined;
    lines.push({ text, part });
  });
  let label = 0;
  const pending: {
    block: number;
    kind: 'holding' | 'claim' | 'cites';
    cue?: string;
    cites?: [string, string, Treatment, string | null][];
  }[] = [];
  doc.body.forEach((block, b) => {
    if ('h' in block) {
      lines.push({ text: block.h, part: block.part, block: b });
      return;
    }
    label += 1;
    let text = block.p;
    const cites = block.cites ?? [];
    const found: [string, string, Treatment, string | null][] = [];
    let i = 0;
    text = text.replace(/\{([A-Z]\d{1,2})\}/g, (_m, name: string) => {
      const cite = cites[i];
      i += 1;
      if (cite === undefined || cite[0] !== name)
        throw new Error(`${doc.name}: {${name}} is not listed in cites`);
      const key = keyOf(name);
      const w = written(key, variant);
      variant += 1;
      if (normalizeProceeding(w) !== key) throw new Error(`${w} does not read as ${key}`);
      found.push([name, w, cite[1], cite[2] ?? null]);
      return w;
    });
    if (i !== cites.length) throw new Error(`${doc.name}: ${cites.length} cites listed, ${i} written`);
    for (const [, , , cue] of found)
      if (cue !== null && !text.includes(cue)) throw new Error(`${doc.name}: cue ${cue} missing`);
    if (block.holding !== undefined && !text.includes(block.holding))
      throw new Error(`${doc.name}: holding cue missing`);
    lines.push({ text: `${label}. ${text}`, part: block.part, block: b });
    if (block.holding !== undefined) pending.push({ block: b, kind: 'holding', cue: block.holding });
    if (block.claim) pending.push({ block: b, kind: 'claim' });
    if (found.length > 0) pending.push({ block: b, kind: 'cites', cites: found });
  });
  for (const text of doc.closing)
    lines.push({ text, part: doc.corpus === 'style' ? 'signatures' : undefined });

  // Pages: whole lines, at most MAX_LINES wrapped lines each.
  const pages: Line[][] = [[]];
  let used = 0;
  for (const line of lines) {
    const n = wrapped(line.text);
    if (used + n > MAX_LINES && (pages.at(-1)?.length ?? 0) > 0) {
      pages.push([]);
      used = 0;
    }
    pages.at(-1)?.push(line);
    used += n;
  }
  const pageOfBlock = (b: number) => pages.findIndex((p) => p.some((l) => l.block === b)) + 1;
  const lineOfBlock = (b: number) => lines.find((l) => l.block === b)?.text ?? '';
  for (const item of pending) {
    const page = pageOfBlock(item.block);
    const full = lineOfBlock(item.block);
    const [num = '', ...rest] = full.split('. ');
    const body = rest.join('. ');
    if (item.kind === 'holding') holdings.push({ page, label: num, cue: item.cue ?? '', text: body });
    if (item.kind === 'claim') claimParagraphs.push({ page, label: num, text: body });
    for (const [name, w, treatment, cue] of item.cites ?? []) {
      citations.push({
        key: keyOf(name),
        written: w,
        treatment,
        cue,
        target: name in ABSENT ? null : name,
        page,
      });
    }
  }
  const closingDates = findDates(doc.closing.join('\n'));
  if (closingDates[0]?.iso !== doc.meta.decision_date)
    throw new Error(`${doc.name}: the closing line dates it ${closingDates[0]?.iso}`);

  let parts: { part: Part; page: number; text: string }[] | undefined;
  if (doc.corpus === 'style') {
    parts = [];
    let current: Part | undefined;
    // A part that runs over a page break is one segment per page.
    pages.forEach((page, p) => {
      for (const line of page) {
        const last = parts?.at(-1);
        if ((line.part !== undefined && line.part !== current) || last === undefined || last.page !== p + 1) {
          current = line.part ?? current;
          if (current !== undefined) parts?.push({ part: current, page: p + 1, text: line.text });
        } else last.text = `${last.text}\n${line.text}`;
      }
    });
  }
  const stem = doc.name;
  stems.push(stem);
  await mkdir(dir, { recursive: true });
  await writeFile(
    new URL(`${stem}.txt`, dir),
    `${pages.map((p) => p.map((l) => l.text).join('\n')).join('\n\f\n')}\n`,
  );
  answers[stem] = {
    corpus: doc.corpus,
    title: doc.title,
    pages: pages.length,
    meta: doc.meta,
    citations,
    holdings,
    claim_paragraphs: claimParagraphs,
    ...(parts === undefined ? {} : { parts, outcome: doc.meta.outcome }),
  };
}

// Leftovers of an earlier run (a document since renamed) would be read as fixtures.
for (const f of await readdir(dir)) {
  const stem = f.replace(/\.(txt|pdf|docx)$/, '');
  if (stem !== f && !stems.includes(stem)) await rm(new URL(f, dir));
}
await writeFile(
  new URL('answers.json', dir),
  `${JSON.stringify({ absent: ABSENT, documents: answers }, null, 2)}\n`,
);
console.log(`library: ${stems.length} documents, ${Object.keys(ABSENT).length} absent rulings`);
// Formatted as the repository's formatter keeps JSON, so the check passes on a fresh run.
execFileSync('npx', ['biome', 'format', '--write', new URL('answers.json', dir).pathname], {
  stdio: 'inherit',
});
execFileSync(process.execPath, [new URL('make_fixtures.ts', import.meta.url).pathname, 'library'], {
  stdio: 'inherit',
});
