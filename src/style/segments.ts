// A style-corpus decision (the chair's past decisions) cut into its parts by rule, from its headings and
// numbering: header (the committee, the number, the members), parties (העוררים … נגד … המשיבה), background
// (רקע / העובדות, or the numbered paragraphs after «החלטה» before any other heading), the parties' claims
// (טענות הצדדים, טענות העוררים…), discussion (דיון והכרעה), outcome (סוף דבר / התוצאה, or the closing
// paragraph that opens «אשר על כן» or «לפיכך» and decides the appeal) and signatures (ניתנה היום …). Each part
// runs to the start of the next; a part over two pages is one segment per page. The decision's outcome is
// read from its outcome part (else its last paragraphs) by the one outcome reader (src/legal/outcomes.ts).
import { headingSection } from '../analysis/claims_common.ts';
import { headingLike, labelOf } from '../analysis/layout.ts';
import type { StylePart } from '../db/schema/holdings.ts';
import type { Outcome } from '../db/schema/vocabulary.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { readOutcome } from '../legal/outcomes.ts';

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

/** The lines of a page with their offsets (trimmed), and each line's text without its paragraph number. */
function lines(
  page: string,
): { start: number; end: number; text: string; norm: string; numbered: boolean }[] {
  const out: { start: number; end: number; text: string; norm: string; numbered: boolean }[] = [];
  let at = 0;
  for (const raw of page.split('\n')) {
    const lineStart = at;
    at += raw.length + 1;
    const text = raw.trim();
    if (text === '') continue;
    const start = lineStart + raw.length - raw.trimStart().length;
    const label = labelOf(text);
    out.push({
      start,
      end: start + text.length,
      text,
      norm: n(label === null ? text : text.slice(label.length)),
      numbered: label !== null,
    });
  }
  return out;
}

/** A heading line: short, not ending a sentence (a numbered one too: «ג. דיון והכרעה»). */
const shortLine = (line: { text: string; norm: string }) =>
  headingLike(line.text) || (line.norm.split(' ').length <= 5 && !/[.,;]$/.test(line.text));

/** The parts of a decision, one segment per part and page, in reading order. */
export function segmentDecision(pages: readonly string[]): {
  segments: StyleSegment[];
  outcome: Outcome | null;
} {
  const bounds: Boundary[] = [];
  let current: StylePart | null = null;
  const open = (part: StylePart, heading: string | null, page: number, at: number) => {
    if (part === current) return;
    bounds.push({ part, heading, page, at });
    current = part;
  };
  // Before the body: header, then parties; the «החלטה» title closes them and the body opens on the next line.
  let body = false;
  let titled = false;
  pages.forEach((text, i) => {
    const page = i + 1;
    for (const line of lines(text)) {
      if (current === null) open('header', null, page, line.start);
      if (current === 'signatures') continue;
      if (SIGNATURE.test(line.norm)) {
        open('signatures', null, page, line.start);
        continue;
      }
      const part = shortLine(line) ? headingPart(line.norm) : null;
      if (part !== null) {
        body = true;
        open(part, line.text, page, line.start);
        continue;
      }
      if (!body) {
        if (titled) {
          body = true;
          open('background', null, page, line.start);
        } else if (shortLine(line) && DECISION.test(line.norm)) {
          titled = true;
        } else if (current === 'header' && PARTY.test(line.norm)) {
          open('parties', null, page, line.start);
        }
        continue;
      }
      if (
        line.numbered &&
        (current === 'discussion' || current === 'background') &&
        CLOSING.test(line.norm) &&
        readOutcome(line.text).own !== null
      ) {
        open('outcome', null, page, line.start);
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
  const outcome = readOutcome(closing.length > 0 ? closing.join('\n') : tail.slice(-600)).own?.value ?? null;
  return { segments, outcome };
}
