// Candidate claims of a document, by rule, from every filing and layout (docs/analysis.md "Claims"):
// - filings (appeals, responses, written summations, «עיקרי טיעון», requests): every paragraph, numbered,
//   bulleted or not, is a claim of the party the filing speaks for (or that its heading names), except under a
//   heading of facts, parties, procedure, introduction or closing, and except a paragraph that only tells
//   facts or procedure (dates, «הערר הוגש», «העוררים הם הבעלים») or introduces a list («ואלה נימוקינו:»).
//   Any other heading, known or not, opens a section of claims; a known list of headings only says whose;
// - a paragraph asking for relief (מתבקשת ועדת הערר …, or under «הסעד המבוקש») is kind "relief";
// - protocols: each statement of a party's representative («ב"כ העוררים: …»), not the chair's;
// - decisions and interim decisions: sentence by sentence, every sentence of a section that summarises a
//   party's claims («טענות העוררים», «תמצית טענות הצדדים», «עיקר טענות המשיבה», also run into the text),
//   and anywhere, a sentence that reports a named party's claim in the committee's voice («לטענת העוררים»,
//   «העוררים טוענים כי», «לגישת», «לדידם של», «לשיטת המשיבה», «העוררים סבורים», «ב"כ העוררים טען») and the
//   sentences that carry it on («עוד טוענים», «לחלופין», after a colon). An impersonal «נטען כי» names no
//   party and is not a claim of a decision; the committee's own reasoning never is.
// Judgement (rewording, grouping) is the agents'; this only proposes candidates with where they are written.
import type { ClaimKind, ClaimParty } from '../db/schema/analysis.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import {
  type ClaimCandidate,
  candidate,
  headingSection,
  isClaimsHeading,
  partyCue,
  type Section,
  slice,
} from './claims_common.ts';
import { decisionClaims } from './claims_decisions.ts';
import { type Block, cueList, hasCue, headingLike, pageBlocks } from './layout.ts';
import { namesRole, partyOfRole } from './roles.ts';

export type { ClaimCandidate } from './claims_common.ts';

/** What parties file: read paragraph by paragraph for the filing party's claims. */
const FILINGS: readonly DocumentRole[] = ['appeal', 'response', 'summation', 'arguments', 'request'];
/** What the committee writes: read sentence by sentence for the claims it reports. */
const DECISIONS: readonly DocumentRole[] = ['decision', 'interim_decision'];

/** Which documents are read for claims: what parties file or say (protocols), and decisions. */
export const CLAIM_ROLES: readonly DocumentRole[] = [...FILINGS, 'protocol', ...DECISIONS];

/**
 * Heading lines that open nothing: the committee's and the court's name, the case number, the parties
 * («העוררים: …»), the document's title, a signature.
 */
const HEAD_LINE =
  /^(?:ועדת|ה?וועדה|בית ה?משפט|בבית|ערר|עררימ|ערעור|עת|עמנ|בגצ|תיק|מס|בעניינ|בענינ|העורר|העוררימ|העוררת|המשיב|המשיבה|המשיבימ|המבקש|המבקשת|המבקשימ|עוד|באת כוח|בא כוח|בכ|תאריכ|נוכחימ|לפני|בפני|נגד|נ)(?: |$)/;

const CLAIM_CUES = cueList(
  'טוענ',
  'תטענ',
  'יטענ',
  'לטענת',
  'נטען',
  'שגה',
  'שגתה',
  'שגו',
  'טעה',
  'טעתה',
  'טעו',
  'יש לקבוע',
  'לא החיל',
  'לא הביא בחשבון',
  'לא הביאה בחשבון',
  'התעלמ',
  'הטענה',
  'זכאימ',
  'אינמ זכאימ',
  'דינ הערר',
  'יש לדחות',
  'אינ לקבל',
  'אינ בסיס',
  'בניגוד ל',
  'לא היה מקומ',
);

const RELIEF_CUES = cueList(
  'מתבקש',
  'תבקש',
  'לפיכך מתבקש',
  'מבוקש לקבוע',
  'מבקשת לדחות',
  'מבקשימ לדחות',
  'מבקשימ לקבל',
  'מבקשת לקבל',
  'מבקשימ לצרפ',
  'מבקשת לצרפ',
  'מבקשימ להורות',
  'מבקשת להורות',
);

/** Paragraphs that tell facts or procedure, not argue (a filing's account of the case). */
const PROCEDURAL_CUES = cueList(
  'הערר הוגש',
  'הוגש ביומ',
  'העוררימ המ',
  'העוררימ הינמ',
  'העוררת היא',
  'העורר הוא',
  'המשיבה היא',
  'היא בעלת',
  'הוא בעל',
  'המ הבעלימ',
  'מתגוררימ',
  'התקיימ דיונ',
  'זהו ערר',
  'ערר זה',
  'מצורפ',
  'מוגשימ',
  'מוגשת בזאת',
  'מגישה בזאת',
  'מגישימ בזאת',
  'בהתאמ להחלטת',
  'לפי החלטת',
);

/** A paragraph that opens with a date («ביום 1.7.2025 …») tells what happened, unless it argues. */
const DATED = /^(?:ב|ו?ביומ|מיומ|עד ליומ)\s*\d|^ביומ |(?:^| )(?:ביומ|מיומ) \d/;

/** «מצ"ב», «רצ"ב»: an exhibit attached. */
const ATTACHED = /(?:^|\s)[מר]צ["״']ב(?:\s|$)/;

/** The speaker of a protocol line («ב"כ העוררים: …», «עו"ד כהן (ב"כ המשיבה): …») and where the statement starts. */
const SPEAKER = /^([^:\n]{2,60}):\s*/;

function speakerParty(who: string): ClaimParty | null | 'committee' {
  const norm = normalizeHebrew(who);
  if (/(?:^| )(?:יור|חבר|חברת|מזכיר|מזכירת|ה?וועדה$|ה?יושב ראש|כב|השופט)(?: |$)/.test(norm)) {
    if (!/בכ|בא כוח|באת כוח|באי כוח|מטעמ|נציג/.test(norm)) return 'committee';
  }
  if (!/(?:^| )(?:בכ|בא כוח|באת כוח|באי כוח|עוד|מטעמ|נציג|ה?עורר|ה?משיב|ה?מבקש|ה?מערער|ה?עותר)/.test(norm))
    return null;
  return partyCue(norm, 10);
}

/** A protocol statement too slight to be a claim: «אין לי מה להוסיף», «מסכים», «כן». */
const SLIGHT =
  /^(?:אינ לי|אינ לנו|מסכימ|מסכימה|מסכימימ|כנ|לא|תודה|אני מסכימ|אבקש לדחות את הדיונ|מבקש(?:ת)? דחייה)(?: |$)/;

/** A filing's paragraphs: claims of its party, relief, with facts and procedure left out. */
function filingClaims(pages: readonly string[], docParty: ClaimParty | null): ClaimCandidate[] {
  const out: ClaimCandidate[] = [];
  let section: Section | null = null;
  let heading: string | null = null;
  let lastParty: ClaimParty | null = null;
  pages.forEach((text, i) => {
    const blocks = pageBlocks(text, { isHeading: isClaimsHeading, bullets: true, letteredHeadings: true });
    blocks.forEach((block, j) => {
      if (block.kind === 'heading') {
        if (namesRole(block.norm)) {
          // The title: the body starts under it.
          section = null;
          heading = null;
          return;
        }
        if (HEAD_LINE.test(block.norm) || /:\s*\S/.test(slice(text, block))) {
          // The head of the document (names, numbers, parties, a signature): only what argues is a claim.
          section = { type: 'head', party: null };
          heading = null;
          return;
        }
        section = headingSection(block.norm, true) ?? { type: 'none', party: null };
        heading = block.norm;
        lastParty = section.party;
        return;
      }
      const raw = slice(text, block);
      // The committee's or court's line above the title, too long to read as a heading.
      if (block.label === null && PREAMBLE.test(block.norm)) return;
      // An introduction to a list («הטענות הן:» then א., ב.; «ואלה נימוקי הערר:») is not itself a claim.
      const next: Block | undefined = blocks[j + 1];
      if (/:\s*$/.test(raw) && (next === undefined || next.kind === 'paragraph')) return;
      if (HEAD_LINE.test(block.norm) && /^[^.]*:/.test(raw)) return;
      const relief = hasCue(block.norm, RELIEF_CUES) || section?.type === 'relief';
      const argues = hasCue(block.norm, CLAIM_CUES);
      const procedural = hasCue(block.norm, PROCEDURAL_CUES) || DATED.test(block.norm) || ATTACHED.test(raw);
      let kind: ClaimKind;
      if (relief) kind = 'relief';
      else if (section?.type === 'none' || (section?.type === 'head' && !argues)) return;
      else if (procedural && !argues) return;
      else kind = 'claim';
      // A party's own filing speaks for that party (a response restating the appellants' claim is still the
      // respondent's paragraph), unless its heading names another («טענות המשיבה 2» in a summary).
      const party = section?.party ?? docParty ?? partyCue(block.norm) ?? lastParty;
      if (party === null) return;
      lastParty = party;
      out.push(candidate(party, kind, block.label, heading, i, text, block.start, block.end));
    });
  });
  return out;
}

const PREAMBLE = /^(?:ועדת|ה?וועדה ה?(?:מחוזית|ארצית)|בית ה?משפט|ערר מס|בפני|לפני)(?: |$)/;

/**
 * A protocol's statements by the parties' representatives, one claim per statement: a line that opens with
 * a speaker («ב"כ העוררים:») starts one; the lines after it, up to the next speaker or a blank line, are its
 * own paragraphs (a protocol is typed one line per paragraph). The chair's and members' words are not claims.
 */
function protocolClaims(pages: readonly string[]): ClaimCandidate[] {
  const out: ClaimCandidate[] = [];
  let speaker: ClaimParty | null | 'committee' = null;
  pages.forEach((text, i) => {
    let at = 0;
    for (const raw of text.split('\n')) {
      const lineStart = at;
      at += raw.length + 1;
      const line = raw.trim();
      if (line === '') continue;
      let start = lineStart + (raw.length - raw.trimStart().length);
      const end = start + line.length;
      const m = SPEAKER.exec(line);
      const who = m === null ? null : speakerParty(m[1] ?? '');
      if (m !== null && who !== null) {
        speaker = who;
        start += m[0].length;
      } else if (headingLike(line)) {
        // «החלטה», «נוכחים», a new heading: the statement before it has ended.
        speaker = null;
        continue;
      }
      if (speaker === null || speaker === 'committee') continue;
      const said = normalizeHebrew(text.slice(start, end));
      if (said.split(' ').length < 4 || SLIGHT.test(said)) continue;
      const kind: ClaimKind = hasCue(said, RELIEF_CUES) ? 'relief' : 'claim';
      out.push(candidate(speaker, kind, null, null, i, text, start, end));
    }
  });
  return out;
}

/** Candidate claims and relief requests of one document, in order. */
export function extractClaims(pages: readonly string[], role: DocumentRole | null): ClaimCandidate[] {
  if (role === null || !CLAIM_ROLES.includes(role)) return [];
  if (role === 'protocol') return protocolClaims(pages);
  if (DECISIONS.includes(role)) return decisionClaims(pages);
  return filingClaims(pages, partyOfRole(role, pages[0] ?? ''));
}
