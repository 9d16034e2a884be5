// Candidate claims of a document, by rule. Appeals and responses, and the claim summaries of decisions:
// - under a claims heading (נימוקי הערר, טענות העוררים, תמצית טענות המשיבה, הטענות, …) every numbered
//   paragraph is a claim of the party the heading names (else of the party the document speaks for), until
//   the next heading of another kind;
// - an appeal or response without such a heading: its numbered paragraphs with a claim cue (טוענים, לטענת,
//   נטען, שגה, טעה, יש לקבוע, לא החיל, לא הביא בחשבון, …);
// - a paragraph asking for relief (לפיכך מתבקשת ועדת הערר …, or under «הסעדים המבוקשים») is kind "relief";
// - procedural paragraphs (the parties, dates, «הערר הוגש ביום») are skipped unless they also argue.
// Judgement (rewording, grouping) is the agents'; this only proposes candidates with where they are written.
import type { ClaimKind, ClaimParty } from '../db/schema/analysis.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import { type Block, cueList, hasCue, pageBlocks } from './layout.ts';
import { partyOfRole } from './roles.ts';

export interface ClaimCandidate {
  party: ClaimParty;
  kind: ClaimKind;
  /** The paragraph's number as written, if it has one. */
  label: string | null;
  /** The heading it was found under (normalised), if any. */
  heading: string | null;
  page: number;
  start: number;
  end: number;
  text: string;
  /** normalizeHebrew of the text: the key that tells two claims apart. */
  norm: string;
}

/** Which documents are read for claims: what parties file, and decisions (their claim summaries only). */
export const CLAIM_ROLES: readonly DocumentRole[] = ['appeal', 'response', 'decision'];

type Section = { type: 'claims' | 'relief'; party: ClaimParty | null } | null;

const THIRD_PARTY = /משיב\S* [2-9]|מבקש\S* ה?היתר|צד ג|צד שלישי|צדדימ שלישיימ|מתנגד|שכנימ/;
const RESPONDENT = /משיב|ה?וועדה המקומית|ה?ועדה המקומית|ה?וועדה(?: |$)/;
const APPELLANT = /עורר|ה?ערר(?: |$)/;

/** The section a heading opens: claims of a party, relief, or neither (null: any other heading ends a section). */
export function headingSection(norm: string): Section {
  const h = norm.replace(/^(?:פרק [א-ת0-9]+ )/, '');
  if (/^(?:ה)?סעד(?:ימ)?(?: ה?מבוקש\S*)?$/.test(h) || /^(?:ה)?סעדימ ה?מבוקשימ/.test(h)) {
    return { type: 'relief', party: null };
  }
  const m = /^(?:תמצית |עיקר |עיקרי |פירוט )?(?:ה)?(?:טענות|נימוקי|עמדת|טיעוני)(?: (.*))?$/.exec(h);
  if (m === null) return null;
  const who = m[1] ?? '';
  if (who === '' || /^(?:ה)?צדדימ/.test(who)) return { type: 'claims', party: null };
  if (THIRD_PARTY.test(who)) return { type: 'claims', party: 'third_party' };
  if (RESPONDENT.test(who)) return { type: 'claims', party: 'respondent' };
  if (APPELLANT.test(who)) return { type: 'claims', party: 'appellant' };
  return null;
}

const isKnownHeading = (norm: string) => headingSection(norm) !== null;

const CLAIM_CUES = cueList(
  'טוענ',
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

/** Words that argue but also turn up in a plain account of facts: a claim only outside procedural paragraphs. */
const WEAK_CUES = cueList(
  'טענות',
  'מכל מקומ',
  'לגופו',
  'אינ זה',
  'אינה',
  'אינו',
  'שכנ',
  'משככ',
  'לא זו בלבד',
);

const RELIEF_CUES = cueList('מתבקש', 'תבקש', 'לפיכך מתבקש', 'מבוקש לקבוע', 'מבקשת לדחות', 'מבקשימ לקבל');

const PROCEDURAL_CUES = cueList(
  'הערר הוגש',
  'הוגש ביומ',
  'העוררימ המ',
  'העוררימ הינמ',
  'המשיבה היא',
  'התקיימ דיונ',
  'זהו ערר',
  'ערר זה',
  'מצורפ',
  'רצב',
  'מצב',
);

/** The party a paragraph in a mixed section speaks for, from its opening words. */
function partyCue(norm: string): ClaimParty | null {
  const opening = norm.split(' ').slice(0, 8).join(' ');
  if (THIRD_PARTY.test(opening)) return 'third_party';
  const a = opening.search(APPELLANT);
  const r = opening.search(RESPONDENT);
  if (a >= 0 && (r < 0 || a < r)) return 'appellant';
  if (r >= 0) return 'respondent';
  return null;
}

/** Candidate claims and relief requests of one document, in order. */
export function extractClaims(pages: readonly string[], role: DocumentRole | null): ClaimCandidate[] {
  if (role === null || !CLAIM_ROLES.includes(role)) return [];
  const docParty = partyOfRole(role);
  const perPage = pages.map((text) => pageBlocks(text, isKnownHeading));
  const headed = perPage.some((blocks) =>
    blocks.some((b) => b.kind === 'heading' && headingSection(b.norm) !== null),
  );
  // Decisions are read only where they summarise the parties' claims.
  if (!headed && role === 'decision') return [];
  const out: ClaimCandidate[] = [];
  let section: Section = null;
  let heading: string | null = null;
  let lastParty: ClaimParty | null = null;
  perPage.forEach((blocks, i) => {
    const text = pages[i] ?? '';
    blocks.forEach((block, j) => {
      if (block.kind === 'heading') {
        section = headingSection(block.norm);
        heading = section === null ? null : block.norm;
        lastParty = section?.party ?? null;
        return;
      }
      if (block.label === null) return;
      // An introduction to a sub-list («הטענות הן:» then א., ב.) is not itself a claim.
      const next: Block | undefined = blocks[j + 1];
      if (
        /:\s*$/.test(text.slice(block.start, block.end)) &&
        next?.label != null &&
        next.style !== block.style
      ) {
        return;
      }
      const relief = hasCue(block.norm, RELIEF_CUES) || section?.type === 'relief';
      const procedural = hasCue(block.norm, PROCEDURAL_CUES);
      const argues = hasCue(block.norm, CLAIM_CUES) || (!procedural && hasCue(block.norm, WEAK_CUES));
      let kind: ClaimKind;
      if (relief && (section !== null || role !== 'decision')) kind = 'relief';
      else if (section?.type === 'claims') {
        if (!argues && procedural) return;
        kind = 'claim';
      } else if (!headed && argues) kind = 'claim';
      else return;
      // A party's own filing speaks for that party (a response restating the appellants' claim is still the
      // respondent's paragraph); a decision's mixed summary says whose claim each paragraph is.
      const party =
        section?.party ?? docParty ?? partyCue(block.norm) ?? (section === null ? null : lastParty);
      if (party === null) return;
      if (section !== null && section.party === null) lastParty = party;
      out.push({
        party,
        kind,
        label: block.label,
        heading,
        page: i + 1,
        start: block.start,
        end: block.end,
        text: text.slice(block.start, block.end),
        norm: block.norm,
      });
    });
  });
  return out;
}
