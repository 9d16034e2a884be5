// A decision's claims (decisions and interim decisions), sentence by sentence: the sections that summarise a
// party's claims, and the sentences that report a named party's claim in the committee's voice (claims.ts,
// docs/analysis.md "Claims").
import type { ClaimParty } from '../db/schema/analysis.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import {
  type ClaimCandidate,
  candidate,
  headingSection,
  isClaimsHeading,
  partyCue,
  type Section,
  sentences,
  slice,
  type Unit,
} from './claims_common.ts';
import { pageBlocks } from './layout.ts';

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

/** A decision's claims, sentence by sentence: its summaries of the parties' claims and reported claims. */
export function decisionClaims(pages: readonly string[]): ClaimCandidate[] {
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
