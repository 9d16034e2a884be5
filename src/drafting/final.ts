// The chair's final version read against the export it came from (docs/drafting.md "The final version"):
// each exported block's paragraphs found again by its anchor, its final text (every revision accepted), the
// text with every revision rejected (which equals the exported text when all the chair's edits were tracked),
// the edit ratio between exported and final text, and the tracked changes and comments on it.
import type { ExportedBlock, FinalComment, TrackedChange } from '../db/schema/drafting.ts';
import { BLOCK_PROPERTY_PREFIX, FRAMES_PROPERTY } from './anchors.ts';
import type { BlockAnchor, ReadDocx, ReadParagraph } from './docx_reader.ts';

export interface FinalBlock {
  key: string;
  kind: string;
  exportedVersion: number;
  found: boolean;
  finalText: string | null;
  rejectedText: string | null;
  changes: TrackedChange[];
  comments: FinalComment[];
}

const clean = (s: string) => s.replace(/[\t ]+/g, ' ').trim();

/** The document's text with every revision accepted: paragraphs, numbered ones with their number. */
export function acceptedText(doc: ReadDocx): string {
  let n = 0;
  const out: string[] = [];
  for (const p of doc.paragraphs) {
    const t = clean(p.accepted);
    if (t === '') continue;
    out.push(p.numbered ? `${++n}. ${t}` : t);
  }
  return out.join('\n\n');
}

/** The block keys the file's anchors name: by the content control's tag, else by its bookmark's index. */
function keyOf(anchor: BlockAnchor | null, byIndex: readonly (string | undefined)[]): string | null {
  if (anchor === null) return null;
  if (anchor.tag !== null) return anchor.tag.key;
  return anchor.bookmark === null ? null : (byIndex[anchor.bookmark] ?? null);
}

/**
 * Which block each paragraph belongs to. Anchored paragraphs by their anchor. A paragraph without one that the
 * export did not write (no frame bookmark) was added by the chair: it belongs to the block just before it, or,
 * right after a heading, to the block just after it; a frame in between ends the search. Files exported before
 * frames were marked (no FRAMES_PROPERTY) cannot tell a heading from an added paragraph: those stay unassigned.
 */
function owners(doc: ReadDocx, byIndex: readonly (string | undefined)[]): (string | null)[] {
  const out = doc.paragraphs.map((p) => keyOf(p.anchor, byIndex));
  if (!doc.properties.has(FRAMES_PROPERTY)) return out;
  const added = (i: number) => out[i] === null && doc.paragraphs[i]?.frame === false;
  for (let i = 0; i < out.length; i++) {
    if (!added(i)) continue;
    let before = i - 1;
    while (before >= 0 && added(before)) before--;
    let after = i + 1;
    while (after < out.length && added(after)) after++;
    out[i] = (before >= 0 ? out[before] : null) ?? out[after] ?? null;
  }
  return out;
}

/** Each exported block as found in the final version. */
export function mapBlocks(doc: ReadDocx, exported: readonly ExportedBlock[]): FinalBlock[] {
  // The file's own list of its blocks (custom properties) first: it names the bookmarks' blocks.
  const byIndex = exported.map(
    (b, i) => doc.properties.get(`${BLOCK_PROPERTY_PREFIX}${i}`)?.split('|')[1] ?? b.key,
  );
  const owner = owners(doc, byIndex);
  const paras = new Map<string, ReadParagraph[]>();
  doc.paragraphs.forEach((p, i) => {
    const key = owner[i] ?? null;
    if (key !== null) paras.set(key, [...(paras.get(key) ?? []), p]);
  });
  return exported.map((b) => {
    const mine = paras.get(b.key) ?? [];
    const join = (pick: (p: ReadParagraph) => string) =>
      mine
        .map((p) => clean(pick(p)))
        .filter((t) => t !== '')
        .join('\n');
    const comments = doc.comments
      .filter((c) => (keyOf(c.anchor, byIndex) ?? owner[c.paragraph] ?? null) === b.key)
      .map(({ author, date, text, anchored_text }) => ({ author, date, text, anchored_text }));
    return {
      key: b.key,
      kind: b.kind,
      exportedVersion: b.version,
      found: mine.length > 0,
      finalText: mine.length > 0 ? join((p) => p.accepted) : null,
      rejectedText: mine.length > 0 ? join((p) => p.rejected) : null,
      changes: mine.flatMap((p) => p.changes),
      comments,
    };
  });
}

/** Levenshtein distance over arrays (characters or words), with the common prefix and suffix cut first. */
function distance<T>(a: readonly T[], b: readonly T[]): number {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let ea = a.length;
  let eb = b.length;
  while (ea > start && eb > start && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
  }
  const x = a.slice(start, ea);
  const y = b.slice(start, eb);
  if (x.length === 0) return y.length;
  if (y.length === 0) return x.length;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[y.length] ?? 0;
}

/** Above this many character pairs the ratio is computed over words (a long block rewritten at length). */
const MAX_CHAR_PAIRS = 16_000_000;

/**
 * How much of a block the chair changed: the edit distance between exported and final text over the longer
 * of the two (0 = untouched, 1 = all rewritten). Characters, or words for long texts.
 */
export function editRatio(exported: string, final: string): number {
  const a = [...exported.replace(/\s+/g, ' ').trim()];
  const b = [...final.replace(/\s+/g, ' ').trim()];
  if (a.length === 0 && b.length === 0) return 0;
  if (a.length * b.length <= MAX_CHAR_PAIRS) return distance(a, b) / Math.max(a.length, b.length);
  const wa = exported.split(/\s+/).filter(Boolean);
  const wb = final.split(/\s+/).filter(Boolean);
  return distance(wa, wb) / Math.max(wa.length, wb.length, 1);
}
