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
import { type Block, cueList, hasCue, headingLike, pageBlocks } from './layout.ts';
import { namesRole, partyOfRole } from './roles.ts';

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

/** What parties file: read paragraph by paragraph for the filing party's claims. */
const FILINGS: readonly DocumentRole[] = ['appeal', 'response', 'summation', 'arguments', 'request'];
/** What the committee writes: read sentence by sentence for the claims it reports. */
const DECISIONS: readonly DocumentRole[] = ['decision', 'interim_decision'];

/** Which documents are read for claims: what parties file or say (protocols), and decisions. */
export const CLAIM_ROLES: readonly DocumentRole[] = [...FILINGS, 'protocol', ...DECISIONS];

/** What a heading opens: claims (of a named party, or of the filing's), relief, or none (facts, procedure…). */
type Section = { type: 'claims' | 'relief' | 'none' | 'head'; party: ClaimParty | null };

const THIRD_PARTY = /משיב\S* [2-9]|מבקש\S* ה?היתר|צד ג|צד שלישי|צדדימ שלישיימ|מתנגד|שכנימ/;
const RESPONDENT = /משיב|ה?וועדה המקומית|ה?ועדה המקומית|ה?וועדה(?: |$)/;
const APPELLANT = /עורר|מערער|עותר|ה?ערר(?: |$)/;

/** Headings that are not claims: facts, parties, procedure, introduction, discussion, closing, appendices. */
const NOT_CLAIMS =
  /^(?:ה)?(?:רקע|עובדות|העובדות|השתלשלות|ההליכ|הליכ|מהלכ|הצדדימ|מבוא|פתח דבר|פתיחה|כללי|דיונ|ההכרעה|הכרעה|החלטה|ההחלטה|סופ דבר|סיכומ|לסיכומ|סיכומו של דבר|אחרית דבר|נספח|רשימת|תוכנ העניינימ|מסמכימ|העדימ|הראיות|נוכחימ|לפני|בפני|התוצאה|תוצאה|המסגרת הנורמטיבית|הדינ החל|המצב המשפטי|השאלה|השאלות|המחלוקת|הסוגיה|הנכס|המקרקעינ|התכנית|השומה|ההיתר|הבקשה|האישור)(?: |$)/;

/** The section a heading opens. Unknown headings of a filing argue (`argues`); in a decision they do not. */
export function headingSection(norm: string, argues = false): Section | null {
  const h = norm.replace(/^(?:פרק [א-ת0-9]+ )/, '');
  if (/^(?:ה)?סעד(?:ימ)?(?: ה?מבוקש\S*)?$/.test(h) || /^(?:ה)?סעדימ ה?מבוקשימ/.test(h)) {
    return { type: 'relief', party: null };
  }
  const m =
    /^(?:תמצית |עיקר |עיקרי |פירוט |תקצירה?ה? )?(?:ה)?(?:טענות|נימוקי|נימוקימ|הנימוקימ|עמדת|עמדות|טיעוני|השגות|טיעונ|תשובת|תגובת)(?: (.*))?$/.exec(
      h,
    );
  if (m !== null) {
    const who = m[1] ?? '';
    if (who === '' || /^(?:ה)?צדדימ/.test(who)) return { type: 'claims', party: null };
    if (THIRD_PARTY.test(who)) return { type: 'claims', party: 'third_party' };
    if (RESPONDENT.test(who)) return { type: 'claims', party: 'respondent' };
    if (APPELLANT.test(who)) return { type: 'claims', party: 'appellant' };
    return argues ? { type: 'claims', party: null } : null;
  }
  if (NOT_CLAIMS.test(h)) return { type: 'none', party: null };
  return argues ? { type: 'claims', party: null } : null;
}

const isClaimsHeading = (norm: string) => headingSection(norm)?.type === 'claims';

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

/** The party words open with: appellant, respondent or third party, by the first one named. */
function partyCue(norm: string, words = 8): ClaimParty | null {
  const opening = norm.split(' ').slice(0, words).join(' ');
  const t = opening.search(THIRD_PARTY);
  const a = opening.search(APPELLANT);
  const r = opening.search(RESPONDENT);
  const first = [
    [t, 'third_party'],
    [a, 'appellant'],
    [r, 'respondent'],
  ].filter(([i]) => (i as number) >= 0) as [number, ClaimParty][];
  first.sort((x, y) => x[0] - y[0]);
  // «המשיבה 2» matches both respondent and third party at one place: the third party's reading is the longer.
  return first[0]?.[1] ?? null;
}

const PARTY_WORD = `(?:ה)?(?:עוררימ|עוררות|עוררת|עורר|מערערימ|מערערת|מערער|עותרימ|עותרת|עותר|משיבימ|משיבות|משיבה|משיב|מבקשימ|מבקשת|מבקש|וועדה המקומית|ועדה המקומית|וועדה|ועדה|מתנגדימ|מתנגד)(?: [2-9])?(?: ה?היתר)?`;

/** Verbs of arguing («וטוענת» too, and «מבקש לקבוע»): what makes a sentence about a party a report of its claim. */
const ARGUING =
  'ו?(?:טוענ\\S*|טענ(?:ה|ו)?|סבור\\S*|גורס\\S*|מוסיפ\\S*|הוסיפ\\S*|מדגיש\\S*|הדגיש\\S*|(?:משיג|השיג|מלינ|הלינ)\\S* (?:על|כנגד|נגד|כי)|מבקש\\S* (?:להדגיש|לקבוע)|ביקש\\S* (?:להדגיש|לקבוע))';

/** A sentence in the committee's voice that reports a named party's claim, and where the party is named. */
const REPORTED: RegExp[] = [
  // «לטענת העוררים», «לגישת המשיבה», «לדידם של העוררים», «לשיטתה», «לעמדת העוררת», «לדברי המבקש».
  new RegExp(
    `(?:^| )(?:ו|ש|וש)?(?:לטענת|לגישת|לשיטת|לעמדת|לדברי|לדידה? של|לדידמ של|לדעת|לפי טענת|כטענת)(?: (?<who>${PARTY_WORD}))(?: |$)`,
  ),
  // «טענות העותר כי …», «טענת המשיבה ש…» inside a sentence.
  new RegExp(`(?:^| )(?:ו)?(?:טענות|טענת|טענתה של|טענתמ של) (?<who>${PARTY_WORD}) (?:כי|ש)`),
  // «העוררים טוענים כי», «המשיבה סבורה», «ב"כ העוררים טען», «המשיבה 2 הוסיפה כי», «העוררת מדגישה»,
  // «העוררים בתגובתם טענו», «העוררת משיגה על», «המשיבה מלינה». Only a verb of arguing: «העוררים הגישו»,
  // «המשיבה החליטה», «העוררים צירפו» tell what a party did, not what it argues; a noun of arguing after other
  // words («העוררים הגישו את טענותיהם») only with what it says («טענותיהם כי …»).
  new RegExp(
    `(?:^| )(?:בכ |בא כוח |באת כוח |באי כוח )?(?<who>${PARTY_WORD}) (?:\\S+ ){0,3}?(?:${ARGUING}(?: |$)|טענ(?:ות|ת)\\S* (?:כי|ש|לפיה|לפיהנ) )`,
  ),
  // «טוענת המשיבה כי», «סבורים העוררים», «הוסיף ב"כ העוררים».
  new RegExp(
    `(?:^| )(?:ו)?(?:טוענ\\S*|טענ(?:ה|ו)?|סבור\\S*|מוסיפ\\S*|הוסיפ\\S*|גורס\\S*|מלינ\\S*|משיג\\S*) (?:בכ |בא כוח |באת כוח )?(?<who>${PARTY_WORD})(?: |$)`,
  ),
];

/** «לטענתם», «שלשיטתה», «היא סבורה כי»: the party named before it in the sentence, else the one last named. */
const PRONOUN =
  /(?:^| )(?:(?:ו|ש|וש|כ)?(?:לשיטתמ|לשיטתה|לשיטתו|לטענתמ|לטענתה|לטענתו|לגישתמ|לגישתה|לגישתו|לדידמ|לדידה|לדידו|לעמדתמ|לעמדתה|לעמדתו|לדבריהמ|לדבריה|לדבריו)|^(?:ו)?(?:היא|הוא|המ|הנ) (?:טוענ\S*|סבור\S*|גורס\S*|מוסיפ\S*|מדגיש\S*))(?: |$)/;

/** The party named last in a text (before a pronoun that refers to it). */
function lastNamed(norm: string): ClaimParty | null {
  const words = norm.split(' ');
  for (let k = words.length - 1; k >= 0; k--) {
    const p = partyCue(words.slice(k, k + 3).join(' '), 3);
    if (p !== null && new RegExp(`^${PARTY_WORD}$`).test(words[k] ?? '')) return p;
  }
  return null;
}

/** A sentence that carries the last reported claim on, in its own words: «עוד טוענים», «לחלופין», «טענה חלופית». */
const CARRIES =
  /^(?:לחלופינ|ולחלופינ|טענה (?:חלופית|נוספת)|עוד נטענ|עוד טענ|עוד טוענ|עוד הוסיפ|עוד מוסיפ)(?: |$)/;

/**
 * Words that carry a claim on only right after one («כמו כן», «בנוסף», «זאת ועוד»): the committee opens its
 * own sentences with them too.
 */
const CARRIES_NEXT = /^(?:עוד|כמו כנ|כנ|בנוספ|זאת ועוד|יתרה מזו)(?: |$)/;

/**
 * A sentence whose subject is a party and whose verb tells what it did («העוררים הגישו ערר», «המשיבה החליטה»,
 * «העוררים צירפו חוות דעת», «המבקש פנה»): the committee telling the history, not a claim, unless a heading
 * of claims puts it there or the sentence says it argues.
 */
const PARTY_ACTS = new RegExp(
  `^(?:ו)?(?:בכ |בא כוח |באת כוח |באי כוח )?${PARTY_WORD} (?:\\S+ )?(?:הגיש\\S*|הוגש\\S*|צירפ\\S*|צירפה|החליט\\S*|פנ(?:ה|ו|תה)|הודיע\\S*|הסכימ\\S*|הסכימה|שילמ\\S*|שילמה|קיבל\\S*|קיבלה|רכש\\S*|רכשה|דחת?ה|דחו|אישר\\S*|אישרה|נתנ\\S*|נתנה|הוציא\\S*|ערר\\S*|עררה|ערערו|ערערה|עתר\\S*|עתרה|ביקש\\S*|ביקשה|הפקיד\\S*|הציג\\S*|הגישה|הופיע\\S*|התייצב\\S*|נמנע\\S*)(?: |$)`,
);

/**
 * Where a reported claim goes on with another claim inside one sentence: «…, וכן כי …», «… עוד נטען כי …»,
 * and in a summary of a party's claims, «…, ו» and a new clause («…, וזכותם נפגעה»). Not «, וכי …», which
 * goes on with the same claim's reasons, nor a contrast or consequence that belongs to the clause before
 * («, ולא», «, ולכן»).
 */
const NEXT_CLAIM = /,\s+(?=וכן\s+(?:כי|ש)\S*\s)|\s+(?=עוד\s+נטען\s+כי\s)/g;
const NEXT_CLAUSE =
  /,\s+(?=ו(?!לא\s|לכן\s|לפיכך\s|על\s|זאת\s|זה\s|אף\s|אילו\s|בכך\s|מכאן\s|אשר\s|כך\s|כאשר\s|בהתאם\s|בין\s|בפרט\s|במיוחד\s|גם\s|עוד\s|אם\s|כי\s|כן\s|ממילא\s|בוודאי\s|בודאי\s)[א-ת]{2,}\s)/g;

/** The clauses of a claim sentence, each a claim; a clause shorter than three words stays with the one before. */
function clauses(text: string, unit: Unit, summary: boolean): Unit[] {
  const raw = text.slice(unit.start, unit.end);
  /** Where a clause ends and where the next begins (the comma between belongs to neither). */
  const cuts: [number, number][] = [];
  for (const re of summary ? [NEXT_CLAIM, NEXT_CLAUSE] : [NEXT_CLAIM]) {
    re.lastIndex = 0;
    for (let m = re.exec(raw); m !== null; m = re.exec(raw)) cuts.push([m.index, m.index + m[0].length]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  const words = (a: number, b: number) => normalizeHebrew(raw.slice(a, b)).split(' ').filter(Boolean).length;
  const out: Unit[] = [];
  let from = 0;
  for (const [end, next] of cuts) {
    if (next <= from || words(from, end) < 3 || words(next, raw.length) < 3) continue;
    out.push({ start: unit.start + from, end: unit.start + end, sep: '' });
    from = next;
  }
  out.push({ start: unit.start + from, end: unit.end, sep: unit.sep });
  return out;
}

/** The committee speaking: a sentence that weighs, rejects or decides is never a party's claim. */
const COMMITTEE =
  /(?:^| )(?:איני מקבל|אינני מקבל|אינ בידינו|אינ בידי|לא שוכנענו|שוכנענו|אנו סבורימ|אנו מקבלימ|אנו דוחימ|לטעמנו|לטעמי|לדעתנו|לדעתי|לאחר ששקלנו|לאחר שעיינו|לאחר שבחנו|דינ הערר|הערר נדחה|הערר מתקבל|מצאנו|נראה לנו|נראה לי|טענה זו (?:אינה|לא|דינה)|דינה של טענה|אינ לקבל את טענת|יש לדחות את טענת|דחינו|קיבלנו)(?: |$)/;

/** An inline summary opener: «תמצית טענות העוררים …», «עיקר טענות המשיבה …». */
const SUMMARY_OPENER = new RegExp(
  `^(?:תמצית |עיקר |עיקרי )?(?:ה)?(?:טענות|טיעוני|עמדת)(?: (?<who>${PARTY_WORD}|ה?צדדימ))`,
);

/**
 * The party a named claimant is. A bare «המבקש» is the permit applicant (a third party) where the decision is
 * about a permit, else the side that brought the request.
 */
function partyOfWho(who: string | undefined, permit = false): ClaimParty | null {
  if (who === undefined || who === '') return null;
  const p = partyCue(who, 4);
  if (p !== null) return p;
  if (/^(?:ה)?מבקש/.test(who)) return permit ? 'third_party' : 'appellant';
  return null;
}

const PERMIT = /היתר|שימוש חורג|הקלה/;

interface Unit {
  start: number;
  end: number;
  /** The separator that ended it: a colon or semicolon carries a claim into the next unit. */
  sep: string;
}

/** A block's sentences: split after . ! ? (before a space), at ; and at : followed by words. */
function sentences(text: string, start: number, end: number): Unit[] {
  const raw = text.slice(start, end);
  const out: Unit[] = [];
  // A colon after «להלן» or «קרי» names, it does not introduce; a line ending a quotation or a sentence ends.
  const re = /[.!?](?=\s)|;|(?<!להלן|קרי|ראו|ר')\s*:(?=\s+\S+\s+\S+)|(?<=["”׳״'])\n/g;
  let from = 0;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    // A full stop inside a number or an abbreviation of one letter («ס. 4», «ת.א.») does not end a sentence.
    if (m[0] === '.' && /(?:^|[\s(])[א-ת]$/.test(raw.slice(Math.max(0, m.index - 2), m.index))) continue;
    const to = m.index + m[0].length;
    push(from, to, m[0].trim() === '' ? '' : m[0].trim());
    from = to;
  }
  push(from, raw.length, '');
  return out;
  function push(a: number, b: number, sep: string) {
    const seg = raw.slice(a, b);
    const lead = seg.length - seg.trimStart().length;
    const trail = seg.length - seg.trimEnd().length;
    const s = start + a + lead;
    const e = start + b - trail;
    if (e - s >= 8) out.push({ start: s, end: e, sep });
    else if (out.length > 0 && sep !== '') (out[out.length - 1] as Unit).sep = sep;
  }
}

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

function candidate(
  party: ClaimParty,
  kind: ClaimKind,
  label: string | null,
  heading: string | null,
  page: number,
  text: string,
  start: number,
  end: number,
): ClaimCandidate {
  const t = text.slice(start, end);
  return { party, kind, label, heading, page: page + 1, start, end, text: t, norm: normalizeHebrew(t) };
}

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

const slice = (text: string, b: { start: number; end: number }) => text.slice(b.start, b.end);

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

/** A decision's claims, sentence by sentence: its summaries of the parties' claims and reported claims. */
function decisionClaims(pages: readonly string[]): ClaimCandidate[] {
  const out: ClaimCandidate[] = [];
  let section: Section | null = null;
  let heading: string | null = null;
  /** The party last named as claiming, and whether the unit before was a claim that runs on. */
  let lastParty: ClaimParty | null = null;
  let carry = false;
  /** An inline summary («תמצית טענות העוררים …») holds until the committee speaks. */
  let inline: ClaimParty | null = null;
  /** Whether the sentence just before was a claim: «כמו כן», «בנוסף» carry only that one on. */
  let prevClaimed = false;
  const permit = pages.some((p) => PERMIT.test(p));
  pages.forEach((text, i) => {
    for (const block of pageBlocks(text, {
      isHeading: isClaimsHeading,
      bullets: true,
      letteredHeadings: true,
    })) {
      // A short line that introduces, quotes or reports a claim is a sentence, not a heading.
      const spoken =
        block.kind === 'heading' &&
        headingSection(block.norm) === null &&
        (/[:"”]$|^["“”]/.test(slice(text, block)) || REPORTED.some((re) => re.test(block.norm)));
      if (block.kind === 'heading' && !spoken) {
        section = headingSection(block.norm);
        heading = section?.type === 'claims' ? block.norm : null;
        lastParty = section?.party ?? null;
        carry = false;
        inline = null;
        prevClaimed = false;
        continue;
      }
      if (!carry) lastParty = section?.party ?? lastParty;
      let claimed = false;
      for (const unit of sentences(text, block.start, block.end)) {
        claimed = false;
        const norm = normalizeHebrew(text.slice(unit.start, unit.end));
        let party: ClaimParty | null = null;
        const opener = SUMMARY_OPENER.exec(norm);
        if (opener !== null) {
          inline = partyOfWho(opener.groups?.who, permit) ?? partyCue(norm, 6);
          lastParty = inline;
        }
        if (COMMITTEE.test(norm)) {
          inline = null;
          carry = false;
          prevClaimed = false;
          continue;
        }
        for (const re of REPORTED) {
          const m = re.exec(norm);
          if (m === null) continue;
          party = partyOfWho(m.groups?.who, permit) ?? lastParty;
          if (party !== null) break;
        }
        if (party === null) {
          const m = PRONOUN.exec(norm);
          if (m !== null) party = lastNamed(norm.slice(0, m.index)) ?? lastParty;
        }
        const reported = party !== null;
        const headed = section?.type === 'claims';
        if (party === null && headed) party = section?.party ?? partyCue(norm) ?? lastParty;
        // Outside a heading of claims, what a party did («העוררים הגישו», «המשיבה החליטה») is history.
        const acts = !headed && !reported && PARTY_ACTS.test(norm);
        if (party === null && inline !== null && !acts) party = partyCue(norm, 3) ?? inline;
        if (
          party === null &&
          !acts &&
          (carry || CARRIES.test(norm) || (prevClaimed && CARRIES_NEXT.test(norm)))
        )
          party = lastParty;
        if (party === null) {
          carry = false;
          prevClaimed = false;
          continue;
        }
        lastParty = party;
        carry = unit.sep === ':' || unit.sep === ';';
        claimed = true;
        prevClaimed = true;
        for (const c of clauses(text, unit, headed || inline !== null)) {
          out.push(candidate(party, 'claim', block.label, heading, i, text, c.start, c.end));
        }
      }
      // A quotation introduced by a colon may follow as its own paragraph; anything else starts afresh.
      carry = claimed && /:\s*$/.test(slice(text, block));
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
