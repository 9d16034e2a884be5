// Candidate holdings (הלכות) of a ruling or a committee decision, by rule, read by the structure of a ruling as
// well as by cue. A holding is a general rule stated in the court's or the committee's own voice:
// - by a holding cue anywhere outside the parts named below (נקבע כי, הלכה היא, הכלל הוא, המבחן הוא, נפסק לא
//   אחת, הלכה מושרשת היא, ההלכה שנפסקה היא, עמד על כך…, and «כידוע», «אין חולק כי»), unless the sentence
//   speaks of this case only (its parties, dates, amounts, land, «בענייננו»: «אין חולק כי העוררים הגישו…»);
// - in the discussion part (after «דיון», «דיון והכרעה», «הכרעה»…, before «סוף דבר»), also without a cue: a
//   general sentence in normative language (יש ל…, אין ל…, ככלל, חייבת, רשאית, הנטל מוטל על…) or one a
//   citation supports (inline, or a «ראו ע"א …» sentence after it). Without a discussion heading only cues
//   count: the reader cannot tell the reasoning from the recital of the proceedings.
// Never a holding: a paragraph under a claims, background or outcome heading, a closing paragraph that decides
// the appeal, a sentence attributed to a party (לטענת העוררים, המשיבה טוענת…) and those after it until the court
// speaks, and an order (costs, «ישלמו», «הערר מתקבל», «השומה מוחזרת»). The candidate runs from the first
// sentence of the court's own voice that leads to the rule to the end of its paragraph (a signature line cut
// off). The owner decides what is a holding.
import { type Block, cueList, hasCue, pageBlocks } from '../analysis/layout.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { headingPart } from '../style/segments.ts';
import {
  caseSpecific,
  cites,
  distinguishes,
  isOrder,
  normativeMarker,
  ownVoice,
  partyVoice,
  seeCitation,
} from './ruling.ts';

export interface HoldingCandidate {
  page: number;
  start: number;
  end: number;
  text: string;
  /** The cue that marked it, as the rule names it (for a rule read by structure, its normative word or «ראו»). */
  cue: string;
}

/** The cues, as written; matched on normalised text at a word start. */
const CUES = [
  'נקבע כי',
  'נקבע ש',
  'נקבעה הלכה',
  'נפסק כי',
  'נפסק ש',
  'הלכה היא',
  'ההלכה היא',
  'הלכה פסוקה',
  'ההלכה הפסוקה',
  'ההלכה קובעת',
  'הלכה מושרשת היא',
  'הלכה ידועה היא',
  'ההלכה שנפסקה היא',
  'ההלכה שנקבעה היא',
  'הכלל הוא',
  'הכלל שנקבע בפסיקה',
  'הכלל שנקבע',
  'המבחן הוא',
  'המבחן שנקבע',
  'לא אחת נפסק',
  'לא אחת נקבע',
  'נפסק לא אחת',
  'נקבע לא אחת',
  'כבר נפסק',
  'כבר נקבע',
  'עמד על כך',
  'אנו קובעים',
  'הננו קובעים',
  'מכאן ש',
  'מכאן כי',
  'כידוע',
  'ידוע הוא',
  'אין חולק כי',
  'אין חולק ש',
  'אין מחלוקת כי',
] as const;
const NORM_CUES = CUES.map((c) => ({ cue: c, norm: normalizeHebrew(c) }));

/** The sentences of a paragraph, as offsets into it: a stop, question or exclamation mark before a space or the end. */
export function sentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const re = /[.!?](?=\s|$)/g;
  let from = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ start: from, end: m.index + 1 });
    from = m.index + 1;
  }
  if (from < text.length) out.push({ start: from, end: text.length });
  return out
    .map((s) => {
      const lead = text.slice(s.start, s.end).length - text.slice(s.start, s.end).trimStart().length;
      return { start: s.start + lead, end: s.end };
    })
    .filter((s) => s.end > s.start);
}

/** The first cue of a normalised sentence, or null. */
function cueOf(norm: string): string | null {
  const padded = ` ${norm} `;
  let best: { cue: string; at: number } | null = null;
  for (const c of NORM_CUES) {
    const at = padded.indexOf(` ${c.norm}`);
    if (at >= 0 && (best === null || at < best.at)) best = { cue: c.cue, at };
  }
  return best?.cue ?? null;
}

/** A paragraph that decides the appeal: it opens with a closing word and states the outcome. */
const CLOSING = cueList(
  'אשר על כנ',
  'לפיכך',
  'לאור כל האמור',
  'לאור האמור',
  'סוף דבר',
  'התוצאה היא',
  'על כנ',
);
/** The signature line («ניתנה היום …») glued to the last paragraph: not part of it. */
const SIGNATURE = /\n[ \t]*(?:ניתנה|ניתן)(?: היום| ביום| בהעדר| פה אחד| והודעה)/;

const words = (norm: string) => (norm === '' ? 0 : norm.split(' ').length);

/** Candidate holdings of one document, in reading order. */
export function extractHoldings(pages: readonly string[]): HoldingCandidate[] {
  const out: HoldingCandidate[] = [];
  let part: ReturnType<typeof headingPart> = null;
  pages.forEach((page, i) => {
    const blocks = pageBlocks(page, (n) => headingPart(n) !== null);
    blocks.forEach((block, j) => {
      if (block.kind === 'heading') {
        part = headingPart(block.norm);
        return;
      }
      if (part === 'claims' || part === 'background' || part === 'outcome') return;
      const discussion = part === 'discussion';
      let text = page.slice(block.start, block.end);
      const signed = SIGNATURE.exec(text);
      if (signed !== null) text = text.slice(0, signed.index).trimEnd();
      const opening = normalizeHebrew(text.split(' ').slice(0, 4).join(' '));
      if (hasCue(opening.split(' ').slice(0, 3).join(' '), CLOSING) && isOrder(text, normalizeHebrew(text)))
        return;
      // A paragraph opened in a party's voice stays in it until the court speaks again.
      let party = false;
      let from: number | null = null;
      let general = false;
      for (const s of sentences(text)) {
        const raw = text.slice(s.start, s.end);
        const norm = normalizeHebrew(raw);
        if (partyVoice(norm)) party = true;
        else if (ownVoice(norm)) party = false;
        if (party || isOrder(raw, norm)) {
          from = null;
          general = false;
          continue;
        }
        // A question («מה הדין בסוגיה …?») asks the rule, it does not lead to it.
        if (from === null && /\?\s*$/.test(raw)) continue;
        from ??= s.start;
        const specific = caseSpecific(raw, norm);
        const see = seeCitation(raw, norm);
        let mark: string | null = null;
        const cue = cueOf(norm);
        if (cue !== null && !specific) mark = cue;
        else if (discussion && see) mark = general ? 'ראו' : null;
        else if (discussion && !specific) {
          mark = normativeMarker(norm);
          if (mark === null && cites(raw) && !distinguishes(norm) && words(norm) >= 6) mark = 'ראו';
        }
        if (mark !== null) {
          const start = block.start + from;
          const end = quotedAfter(page, blocks, j, block.start + text.length);
          out.push({ page: i + 1, start, end, text: page.slice(start, end), cue: mark });
          break;
        }
        general = !specific && !see && words(norm) >= 5;
      }
    });
  });
  return out;
}

/**
 * Where a candidate ends: its paragraph, or, when the paragraph introduces a quotation («… נקבע כי:»), the
 * quoted paragraphs after it (up to the one that closes the quotation, at most a few).
 */
function quotedAfter(page: string, blocks: readonly Block[], j: number, end: number): number {
  if (!/:\s*$/.test(page.slice(0, end))) return end;
  let to = end;
  let open = false;
  for (let k = j + 1; k < blocks.length && k <= j + 6; k++) {
    const b = blocks[k] as Block;
    if (b.kind === 'heading') break;
    const t = page.slice(b.start, b.end);
    if (k === j + 1) open = /^\s*["“”״]/.test(t);
    to = b.end;
    if (!open || /["“”״]\s*[.;]?\s*$/.test(t)) break;
  }
  return to;
}
