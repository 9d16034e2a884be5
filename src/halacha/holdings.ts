// Candidate holdings (הלכות) of a ruling or a committee decision, by rule: a paragraph whose own voice states a
// rule with a holding cue (נקבע כי, הלכה היא, הכלל הוא, המבחן הוא, לא אחת נפסק, אנו קובעים, מכאן ש…). A
// paragraph that only reports what a party argues is never a holding, however it is worded: every paragraph
// under a claims heading (טענות הצדדים, טענות העוררים…) or a background heading (רקע, העובדות), and every
// sentence attributed to a party (לטענת העוררים, המשיבה טוענת…) with those after it until the court speaks. The candidate runs from the first sentence that carries the cue in the
// committee's or the court's own voice to the end of its paragraph. The owner decides what is a holding.
import { cueList, hasCue, pageBlocks } from '../analysis/layout.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { headingPart } from '../style/segments.ts';

export interface HoldingCandidate {
  page: number;
  start: number;
  end: number;
  text: string;
  /** The cue that marked it, as the rule names it. */
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
  'הכלל הוא',
  'המבחן הוא',
  'המבחן שנקבע',
  'לא אחת נפסק',
  'לא אחת נקבע',
  'כבר נפסק',
  'כבר נקבע',
  'אנו קובעים',
  'הננו קובעים',
  'מכאן ש',
  'מכאן כי',
] as const;
const NORM_CUES = CUES.map((c) => ({ cue: c, norm: normalizeHebrew(c) }));

/** A sentence in a party's voice: what it argues, not what the court or the committee holds. */
const PARTY_VOICE = cueList(
  'לטענת',
  'טענת העוררימ',
  'טענת העורר',
  'טענת העוררת',
  'טענת המשיבה',
  'טענת המשיבימ',
  'לשיטת',
  'לגישת',
  'לדברי',
  'לעמדת',
  'בא כוח',
  'באת כוח',
  'בכ',
  'נטענ',
  'עוד נטענ',
);
/** Within its opening words: «העותרת טוענת כי», «המבקשת סבורה»… */
const PARTY_VERB = /^(?:\S+ ){0,4}(?:טוענ|סבור|מוסיפ|מדגיש|מבקש\S* לקבוע)/;
/** A sentence in the court's own voice again, after a party's: «אין בידינו לקבל טענה זו», «איננו מקבלים». */
const OWN_VOICE = cueList(
  'אינ בידינו',
  'אינ בידי',
  'איננו מקבלימ',
  'לא מצאנו',
  'דינ הטענה',
  'דינה של טענה',
  'אינ לקבל',
  'אולמ',
  'ואולמ',
  'ברמ',
  'לדעתנו',
  'לטעמנו',
  'אנו סבורימ',
  'איננו סבורימ',
);

const partyVoice = (norm: string) =>
  hasCue(norm.split(' ').slice(0, 6).join(' '), PARTY_VOICE) || PARTY_VERB.test(norm);

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

/**
 * Headings that open a part where no holding is stated: the parties' claims, and the background (an earlier
 * decision's «נקבע כי» there reports what was decided in the case, not a rule). Any other heading ends it.
 */
const isSkippedHeading = (norm: string) => {
  const part = headingPart(norm);
  return part === 'claims' || part === 'background';
};

/** Candidate holdings of one document, in reading order. */
export function extractHoldings(pages: readonly string[]): HoldingCandidate[] {
  const out: HoldingCandidate[] = [];
  let skipped = false;
  pages.forEach((page, i) => {
    for (const block of pageBlocks(page, (n) => headingPart(n) !== null)) {
      if (block.kind === 'heading') {
        skipped = isSkippedHeading(block.norm);
        continue;
      }
      if (skipped) continue;
      const text = page.slice(block.start, block.end);
      // A paragraph opened in a party's voice stays in it until the court speaks again.
      let party = false;
      let from: number | null = null;
      for (const s of sentences(text)) {
        const norm = normalizeHebrew(text.slice(s.start, s.end));
        if (partyVoice(norm)) party = true;
        else if (hasCue(norm, OWN_VOICE)) party = false;
        if (party) {
          from = null;
          continue;
        }
        from ??= s.start;
        const cue = cueOf(norm);
        if (cue === null) continue;
        const start = block.start + from;
        out.push({ page: i + 1, start, end: block.end, text: page.slice(start, block.end), cue });
        break;
      }
    }
  });
  return out;
}
