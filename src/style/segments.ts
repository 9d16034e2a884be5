// A style-corpus decision (the chair's past decisions) cut into its parts by rule, from its headings and
// numbering: header (the committee, the number, the members), parties (העוררים … נגד … המשיבה), background
// (רקע / העובדות, or the numbered paragraphs after «החלטה» before any other heading), the parties' claims
// (טענות הצדדים, טענות העוררים…), discussion (דיון והכרעה), outcome (סוף דבר / התוצאה, or the closing
// paragraph that opens «אשר על כן» or «לפיכך» and decides the appeal) and signatures (ניתנה היום …). Each part
// runs to the start of the next; a part over two pages is one segment per page. The decision's outcome is
// read from its outcome part (else its last paragraphs).
import { headingSection } from '../analysis/claims.ts';
import { type Block, pageBlocks } from '../analysis/layout.ts';
import type { StylePart } from '../db/schema/holdings.ts';
import type { Outcome } from '../precedents/vocabulary.ts';
import { normalizeHebrew } from '../search/normalize.ts';

export interface StyleSegment {
  part: StylePart;
  heading: string | null;
  page: number;
  start: number;
  end: number;
  text: string;
}

const n = normalizeHebrew;
const HEADINGS: [StylePart, RegExp][] = [
  [
    'background',
    new RegExp(
      `^(?:${n('רקע')}|${n('הרקע')}|${n('רקע עובדתי')}|${n('רקע כללי')}|${n('רקע והליכים')}|${n('העובדות')}|${n('עובדות')}|${n('העובדות הצריכות לעניין')}|${n('רקע ועובדות')}|${n('הרקע העובדתי')}|${n('השתלשלות העניינים')})$`,
    ),
  ],
  [
    'discussion',
    new RegExp(
      `^(?:${n('דיון')}|${n('הדיון')}|${n('דיון והכרעה')}|${n('דיון והחלטה')}|${n('דיון ומסקנות')}|${n('ההכרעה')}|${n('הכרעה')}|${n('דיון והכרעה בערר')})$`,
    ),
  ],
  [
    'outcome',
    new RegExp(
      `^(?:${n('סוף דבר')}|${n('התוצאה')}|${n('תוצאה')}|${n('סיכום')}|${n('לסיכום')}|${n('סוף דבר ותוצאה')}|${n('התוצאה היא')})$`,
    ),
  ],
];

/** The part a heading opens, or null. A numbered heading («ג. דיון והכרעה») is read without its number. */
export function headingPart(norm: string): StylePart | null {
  const h = norm.replace(/^(?:פרק \S+ )/, '').trim();
  for (const [part, re] of HEADINGS) if (re.test(h)) return part;
  if (headingSection(h)?.type === 'claims') return 'claims';
  return null;
}

const isKnown = (norm: string) => headingPart(norm) !== null || DECISION.test(norm);

/** The line that opens the decision itself. */
const DECISION = new RegExp(`^(?:${n('החלטה')}|${n('פסק דין')}|${n('החלטה סופית')})$`);
/** A line that names a party. */
const PARTY = new RegExp(
  `^(?:${['העוררים', 'העורר', 'העוררת', 'המשיבה', 'המשיבים', 'המשיב', 'נגד', 'בעניין', 'בין', 'המערערים', 'המערער', 'העותרים', 'העותר'].map(n).join('|')})(?: |$)`,
);
/** The signature line and what follows it. */
const SIGNATURE = new RegExp(
  `^(?:${['ניתנה היום', 'ניתן היום', 'ניתנה פה אחד', 'ניתנה ביום', 'ניתנה בהעדר', 'ניתן בהעדר', 'ניתנה והודעה'].map(n).join('|')})`,
);
/** A closing paragraph that decides the appeal opens the outcome when no heading does. */
const CLOSING = new RegExp(
  `^(?:${['אשר על כן', 'לפיכך', 'לאור כל האמור', 'לאור האמור', 'סוף דבר', 'התוצאה היא', 'על כן'].map(n).join('|')}) `,
);

interface Boundary {
  part: StylePart;
  heading: string | null;
  page: number;
  at: number;
}

/** The decision's outcome as written in a text, or null. */
export function readOutcome(text: string): Outcome | null {
  const t = n(text);
  if (/(?:מתקבל|התקבל|מקבלימ|לקבל)\S* (?:\S+ )?(?:בחלקו|באופנ חלקי|חלקית)/.test(t))
    return 'partially_accepted';
  if (/(?:הערר|העררימ|העתירה|הערעור)(?: \S+)? (?:נדח|נדחימ|נדחית)|דוחימ את|נדחה|נדחימ/.test(t)) {
    return 'rejected';
  }
  if (/(?:הערר|העררימ|העתירה|הערעור)(?: \S+)? (?:מתקבל|התקבל)|מקבלימ את|מתקבל|מתקבלימ/.test(t)) {
    return 'accepted';
  }
  return null;
}

/** The parts of a decision, one segment per part and page, in reading order. */
export function segmentDecision(pages: readonly string[]): {
  segments: StyleSegment[];
  outcome: Outcome | null;
} {
  const blocks = pages.map((p) => pageBlocks(p, isKnown));
  const bounds: Boundary[] = [];
  let current: StylePart | null = null;
  const open = (part: StylePart, heading: string | null, page: number, at: number) => {
    if (part === current) return;
    bounds.push({ part, heading, page, at });
    current = part;
  };
  // Where the body starts: the «החלטה» line, else the first part heading.
  let decided = false;
  pages.forEach((text, i) => {
    const page = i + 1;
    for (const block of blocks[i] as Block[]) {
      const line = text.slice(block.start, block.end);
      if (current === null) open('header', null, page, block.start);
      if (current === 'signatures') continue;
      if (SIGNATURE.test(block.norm)) {
        open('signatures', null, page, block.start);
        continue;
      }
      const part = block.kind === 'heading' ? headingPart(block.norm) : null;
      if (part !== null) {
        decided = true;
        open(part, line, page, lineStart(text, block.start));
        continue;
      }
      if (!decided) {
        if (block.kind === 'heading' && DECISION.test(block.norm)) {
          decided = true;
          open('background', null, page, lineStart(text, block.start));
          continue;
        }
        if (current === 'header' && PARTY.test(block.norm)) open('parties', null, page, block.start);
        continue;
      }
      if (
        block.kind === 'paragraph' &&
        (current === 'discussion' || current === 'background') &&
        CLOSING.test(block.norm) &&
        readOutcome(line) !== null
      ) {
        open('outcome', null, page, lineStart(text, block.start));
      }
    }
  });
  const segments: StyleSegment[] = [];
  bounds.forEach((b, k) => {
    const next = bounds[k + 1];
    const lastPage = next?.page ?? pages.length;
    for (let page = b.page; page <= lastPage; page++) {
      const text = pages[page - 1] ?? '';
      const from = page === b.page ? b.at : 0;
      const to = next !== undefined && page === next.page ? next.at : text.length;
      const raw = text.slice(from, to);
      const start = from + (raw.length - raw.trimStart().length);
      const end = to - (raw.length - raw.trimEnd().length);
      if (end <= start) continue;
      segments.push({
        part: b.part,
        heading: page === b.page ? b.heading : null,
        page,
        start,
        end,
        text: text.slice(start, end),
      });
    }
  });
  const closing = segments.filter((s) => s.part === 'outcome').map((s) => s.text);
  const tail = segments.filter((s) => s.part !== 'signatures').slice(-1)[0]?.text ?? '';
  const outcome = readOutcome(closing.length > 0 ? closing.join('\n') : tail.slice(-600));
  return { segments, outcome };
}

/** The start of the line that holds `at` (a numbered heading starts at its number). */
function lineStart(text: string, at: number): number {
  const nl = text.lastIndexOf('\n', at - 1);
  const from = nl + 1;
  return /^\s*$/.test(text.slice(from, at)) || /^[\s\dא-ת().]*$/.test(text.slice(from, at)) ? from : at;
}
