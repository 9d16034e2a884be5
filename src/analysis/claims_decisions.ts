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
import {
  attributionOpens,
  cueCuts,
  hasCue,
  type Mention,
  mentions,
  OTHER_SIDE,
  otherSide,
  PARTY_WORD,
  PRONOUN,
  pronounAgreement,
  referent,
  reportedWho,
} from './claims_cues.ts';
import { pageBlocks } from './layout.ts';

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
const ACTS =
  '(?:הגיש\\S*|הוגש\\S*|צירפ\\S*|צירפה|החליט\\S*|פנ(?:ה|ו|תה)|הודיע\\S*|הסכימ\\S*|הסכימה|שילמ\\S*|שילמה|קיבל\\S*|קיבלה|רכש\\S*|רכשה|קנ(?:ה|תה|ו)|דחת?ה|דחו|אישר\\S*|אישרה|נתנ\\S*|נתנה|הוציא\\S*|ערר\\S*|עררה|ערערו|ערערה|עתר\\S*|עתרה|ביקש\\S*|ביקשה|הפקיד\\S*|הציג\\S*|הגישה|הופיע\\S*|התייצב\\S*|נמנע\\S*)';
const PARTY = `(?:בכ |בא כוח |באת כוח |באי כוח )?${PARTY_WORD}`;
const PARTY_ACTS = new RegExp(`^(?:ו)?${PARTY} (?:\\S+ )?${ACTS}(?: |$)`);

/**
 * The history told inside a summary run into the text («טענות המערערת המערערת רכשה …», «ביום 1.2.03 הוצאה
 * שומה», «ההשגה נתבררה שנים»): a party's act anywhere in the sentence, a date, a step of the procedure, with
 * nothing that argues («לא», «אין», «שגה», «סברה ש»).
 */
const NARRATIVE = new RegExp(
  `(?:^| )(?:(?:ו)?${PARTY} (?:\\S+ )?${ACTS}|(?:ו|מש)?${ACTS} ${PARTY}|(?:הוצא|הועבר|נמשכ|נעתר|התקיימ|קבע)\\S*|(?:ביומ|בחודש|בשנת) \\d+)(?: |$)`,
);
const DATE = /\d{1,2}[./]\d{1,2}[./]\d{2,4}/;
const ARGUES =
  /(?:^| )(?:לא|אינ|אינה|אינמ|אינו|שגה|שגתה|שגו|טעה|טעתה|טעו|יש ל\S*|(?:ו|ש|וש)?חשב\S*|היה עלי\S*|כדינ|בניגוד)(?: |$)/;

/**
 * Where a reported claim goes on with another claim inside one sentence: «…, וכן כי …», «… עוד נטען כי …»,
 * and in a summary of a party's claims, «…, ו» and a new clause («…, וזכותם נפגעה»). Not «, וכי …», which
 * goes on with the same claim's reasons, nor a contrast or consequence that belongs to the clause before
 * («, ולא», «, ולכן»).
 */
const NEXT_CLAIM = /,\s+(?=וכן\s+(?:כי|ש)\S*\s)|\s+(?=עוד\s+נטען\s+כי\s)/g;
const NEXT_CLAUSE =
  /,\s+(?=ו(?!לא\s|לכן\s|לפיכך\s|על\s|זאת\s|זה\s|אף\s|אילו\s|בכך\s|מכאן\s|אשר\s|כך\s|כאשר\s|בהתאם\s|בין\s|בפרט\s|במיוחד\s|גם\s|עוד\s|אם\s|כי\s|כן\s|ממילא\s|בוודאי\s|בודאי\s)[א-ת]{2,}\s)/g;

/**
 * The clauses of a claim sentence, each a claim; a clause shorter than three words stays with the one before.
 * A new cue after a comma («…, ומאידך טוען המשיב 2 כי …», «…, ולגופו של עניין, טענה כי …») starts another
 * claim, of the party it names; what comes before the first cue, if it names no claim, is its opening.
 */
function clauses(text: string, unit: Unit, summary: boolean): (Unit & { cue: boolean })[] {
  const raw = text.slice(unit.start, unit.end);
  /** Where a clause ends and where the next begins (the comma between belongs to neither), and if by a cue. */
  const cuts: [number, number, boolean][] = cueCuts(raw).map(([a, b]) => [a, b, true]);
  for (const [a, b] of predicateCuts(raw)) cuts.push([a, b, false]);
  for (const re of summary ? [NEXT_CLAIM, NEXT_CLAUSE] : [NEXT_CLAIM]) {
    re.lastIndex = 0;
    for (let m = re.exec(raw); m !== null; m = re.exec(raw))
      cuts.push([m.index, m.index + m[0].length, false]);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  const norm = (a: number, b: number) => normalizeHebrew(raw.slice(a, b));
  const words = (a: number, b: number) => norm(a, b).split(' ').filter(Boolean).length;
  const out: (Unit & { cue: boolean })[] = [];
  let from = 0;
  let cue = false;
  for (const [end, next, byCue] of cuts) {
    if (next <= from || words(from, end) < 3 || words(next, raw.length) < 3) continue;
    if (byCue && out.length === 0 && !summary && !hasCue(norm(from, end))) continue;
    out.push({ start: unit.start + from, end: unit.start + end, sep: '', cue });
    from = next;
    cue = byCue;
  }
  out.push({ start: unit.start + from, end: unit.end, sep: unit.sep, cue });
  return out;
}

/**
 * One subject, several predicates after one «כי» («כי ההגבהה תשפר את הדיור, תתאים את הגג למקובל …»): each
 * predicate is a claim of its own. A comma is a cut where the word after it is a verb in the same person as
 * the first predicate (the future's prefix, ת or י), the subject a definite noun right after «כי».
 */
const FIRST_PREDICATE = /(?:^|\s)כי\s+ה[\u05d0-\u05ea]{2,}\s+(?<verb>[תי])[\u05d0-\u05ea]{2,}\s/u;
const NOT_VERB =
  /^(?:תוך|תחת|תמורת|תכנית|תוכנית|תוספת|תקנה|תקנות|תשריט|תנאי|תנאים|יחד|ישירות|יותר|יום|ימים)$/;

function predicateCuts(raw: string): [number, number][] {
  const first = FIRST_PREDICATE.exec(raw);
  const person = first?.groups?.verb;
  if (first === null || person === undefined) return [];
  const out: [number, number][] = [];
  const re = /,\s+(?=([\u05d0-\u05ea]+)\s)/gu;
  re.lastIndex = first.index + first[0].length;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    const word = m[1] ?? '';
    if (word.length >= 4 && word.startsWith(person) && !NOT_VERB.test(word))
      out.push([m.index, m.index + m[0].length]);
  }
  return out;
}

/** The committee speaking: a sentence that weighs, rejects or decides is never a party's claim. */
const COMMITTEE =
  /(?:^| )(?:איני מקבל|אינני מקבל|אינ בידינו|אינ בידי|לא שוכנענו|שוכנענו|אנו סבורימ|אנו מקבלימ|אנו דוחימ|לטעמנו|לטעמי|לדעתנו|לדעתי|לאחר ששקלנו|לאחר שעיינו|לאחר שבחנו|דינ הערר|הערר נדחה|הערר מתקבל|מצאנו|נראה לנו|נראה לי|טענה זו (?:אינה|לא|דינה)|דינה של טענה|אינ לקבל את טענת|יש לדחות את טענת|דחינו|קיבלנו)(?: |$)/;

/** An inline summary opener: «תמצית טענות העוררים …», «עיקר טענות המשיבה …». */
const SUMMARY_OPENER = new RegExp(
  `^(?:להלנ |ואלה |אלה )?(?:תמצית |עיקר |עיקרי )?(?:ה)?(?:טענות|טיעוני|עמדת)(?: (?<who>${PARTY_WORD}|ה?צדדימ))`,
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

/** A sentence that opens the committee's own part, run into the text («דיון והכרעה», «סוף דבר»). */
const OWN_PART =
  /^(?:דיונ והכרעה|דיונ ומסקנות|הדיונ|דיונ|הכרעה|ההכרעה|סופ דבר|התוצאה|רקע|הרקע|העובדות)(?: |$)/;

/** A sentence whose subject is the committee or the court («ועדת הערר דחתה …»): it carries no claim on. */
const BENCH = /^(?:ו)?(?:ועדת ה?ערר|בית ה?משפט|בית הדינ|השופט\S*|כב )/;

/**
 * A clause that turns to another subject («ובאשר לבקשה, עניינה …», «אשר לתכנית»): after a semicolon it is
 * the committee going on with its account, not the claim before it, unless it names a claim by its own cue.
 */
const TOPIC = /^(?:ו)?(?:(?:באשר|אשר|בנוגע|ביחס|בהתייחס) ל\S+|לעניינ|בעניינ)(?: |$)/;

/**
 * Where a claim's words stop and the account of what the filing does goes on («… ובמסגרת זו מתייחסים לחוות
 * הדעת»): what follows is the claim's place in the filing, not more of the claim.
 */
const FILING_TAIL = /,?\s+(?=ו?במסגרת (?:זו|זאת|זה)\s)/g;

/** The words of a reported claim after its cue («העוררים מנמקים מדוע הם זכאים …» → «הם זכאים …»). */
const AFTER_CUE = /(?:^| )(?:\S+ ){0,6}?(?:כי|מדוע|לפיה|לפיו) /;
const FUNCTION_WORD =
  /^(?:ה|הוא|היא|המ|הנ|כי|ש|את|של|על|אל|עמ|גמ|אכ|זה|זו|זאת|אשר|כל|לא|אינ|מדוע|לפיה|לפיו|טוענ\S*|טענ\S*)$/;

/** A claim's content words, prefixes aside: what tells a new claim from one that says an earlier one again. */
function contentWords(norm: string): Set<string> {
  const m = AFTER_CUE.exec(norm);
  const body = m === null ? norm : norm.slice(m.index + m[0].length);
  const out = new Set<string>();
  for (const w of body.split(' ')) {
    if (w === '' || FUNCTION_WORD.test(w)) continue;
    out.add(w.length > 3 ? w.replace(/^(?:ו|ה|ל|ב|ש|מ|כ)+/, '') : w);
  }
  return out;
}

/**
 * The same claim reported again («ולכן זכאים לפטור» and later «העוררים ממשיכים ומנמקים מדוע הם זכאים
 * לפטור») is one claim: a later one of the same party whose content words all appear in an earlier one adds
 * nothing and is left out.
 */
function withoutRestatements(claims: readonly ClaimCandidate[]): ClaimCandidate[] {
  const seen: { party: ClaimParty; words: Set<string> }[] = [];
  const out: ClaimCandidate[] = [];
  for (const c of claims) {
    const words = contentWords(c.norm);
    const again =
      words.size > 0 && seen.some((s) => s.party === c.party && [...words].every((w) => s.words.has(w)));
    seen.push({ party: c.party, words });
    if (!again) out.push(c);
  }
  return out;
}

/** «…, אך טענה זו לא הוכחה»: the committee's answer joined to the claim it answers. */
const ANSWER = /,\s*(?:אך|אולם|ואולם|ברם|אלא ש)/g;

/**
 * A sentence that reports a claim and then answers it («ב"כ העוררים טען כי …, אך טענה זו לא נתמכה …»):
 * the claim is the part before the answer. Any other sentence is read whole.
 */
function beforeAnswer(text: string, unit: Unit): Unit {
  const raw = text.slice(unit.start, unit.end);
  const norm = normalizeHebrew(raw);
  if (!COMMITTEE.test(norm)) return unit;
  ANSWER.lastIndex = 0;
  for (let m = ANSWER.exec(raw); m !== null; m = ANSWER.exec(raw)) {
    const head = normalizeHebrew(raw.slice(0, m.index));
    if (COMMITTEE.test(head)) return unit;
    if (reportedWho(head) !== null) return { start: unit.start, end: unit.start + m.index, sep: '' };
  }
  return unit;
}

/** A subheading that names a side inside a section of claims («העוררים», «המשיבה 2», «ב"כ העוררים»). */
const SIDE_HEADING = new RegExp(`^(?:בכ |בא כוח |באת כוח |באי כוח )?${PARTY_WORD}$`);

const words = (norm: string) => norm.split(' ').filter(Boolean).length;

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
  /** The parties named so far, for a pronoun («לטענתו», «היא טוענת») to refer to by gender and number. */
  let named: Mention[] = [];
  const permit = pages.some((p) => PERMIT.test(p));
  const resolve = (who: string) => partyOfWho(who, permit);

  /** The party a sentence (or clause) reports a claim of by its own words, or null. */
  function saidBy(
    raw: string,
    norm: string,
    introduces: boolean,
    before: ClaimParty | null,
  ): ClaimParty | null {
    const r = reportedWho(norm, introduces);
    if (r !== null) {
      const p = partyOfWho(r.who, permit) ?? before;
      if (p !== null) return p;
    }
    if (OTHER_SIDE.test(norm)) {
      const p = otherSide(before);
      if (p !== null) return p;
    }
    const m = PRONOUN.exec(norm);
    if (m === null || !attributionOpens(raw, m)) return null;
    return referent([...named, ...mentions(norm.slice(0, m.index), resolve)], pronounAgreement(m)) ?? before;
  }

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
        (/[:"”]$|^["“”]/.test(slice(text, block)) || hasCue(block.norm));
      if (block.kind === 'heading' && !spoken) {
        carry = false;
        inline = null;
        prevClaimed = false;
        if (section?.type === 'claims' && SIDE_HEADING.test(block.norm)) {
          // «טענות הצדדים», then «העוררים» over their claims and «המשיבה» over hers.
          section = { type: 'claims', party: partyOfWho(block.norm, permit) };
          lastParty = section.party;
          continue;
        }
        section = headingSection(block.norm);
        heading = section?.type === 'claims' ? block.norm : null;
        lastParty = section?.party ?? null;
        continue;
      }
      if (!carry) lastParty = section?.party ?? lastParty;
      let claimed = false;
      for (const whole of sentences(text, block.start, block.end)) {
        claimed = false;
        const unit = beforeAnswer(text, whole);
        const raw = text.slice(unit.start, unit.end);
        const norm = normalizeHebrew(raw);
        const opener = SUMMARY_OPENER.exec(norm);
        if (opener !== null) {
          inline = partyOfWho(opener.groups?.who, permit) ?? partyCue(norm, 6);
          lastParty = inline;
        }
        const before = named;
        named = [...named, ...mentions(norm, resolve)].slice(-12);
        if (COMMITTEE.test(norm) || (opener === null && OWN_PART.test(norm))) {
          inline = null;
          carry = false;
          prevClaimed = false;
          continue;
        }
        const introduces = unit.sep === ':' || /:\s*$/.test(raw);
        const saved = named;
        named = before;
        let party = saidBy(raw, norm, introduces, lastParty);
        named = saved;
        const reported = party !== null;
        const headed = section?.type === 'claims';
        if (party === null && headed) party = section?.party ?? partyCue(norm) ?? lastParty;
        // Outside a heading of claims, what a party did («העוררים הגישו», «המשיבה החליטה») is history; so is
        // the history a summary run into the text tells before the claims.
        const acts =
          !headed &&
          !reported &&
          (inline === null
            ? PARTY_ACTS.test(norm)
            : (PARTY_ACTS.test(norm) || NARRATIVE.test(norm) || DATE.test(raw)) && !ARGUES.test(norm));
        if (party === null && inline !== null && !acts) party = partyCue(norm, 3) ?? inline;
        if (
          party === null &&
          !acts &&
          ((carry && !BENCH.test(norm) && !TOPIC.test(norm)) ||
            CARRIES.test(norm) ||
            (prevClaimed && CARRIES_NEXT.test(norm)))
        )
          party = lastParty;
        if (party === null) {
          carry = false;
          prevClaimed = false;
          continue;
        }
        carry = unit.sep === ':' || unit.sep === ';';
        claimed = true;
        prevClaimed = true;
        // «תמצית טענות העוררים:», «העוררים טוענים כי:»: an opening that says whose the claims after it are.
        const opening =
          (opener !== null && words(norm.slice(opener[0].length)) < 2) ||
          (introduces && reportedWho(norm) === null && reportedWho(norm, true) !== null);
        if (opening) {
          lastParty = party;
          continue;
        }
        let clauseParty: ClaimParty = party;
        for (const c of clauses(text, unit, headed || inline !== null)) {
          if (c.cue) {
            const said = slice(text, c);
            clauseParty = saidBy(said, normalizeHebrew(said), false, clauseParty) ?? clauseParty;
          }
          const end = filingTail(text, c);
          if (end === null) continue;
          out.push(candidate(clauseParty, 'claim', block.label, heading, i, text, c.start, end));
        }
        lastParty = clauseParty;
      }
      // A quotation introduced by a colon may follow as its own paragraph; anything else starts afresh.
      carry = claimed && /:\s*$/.test(slice(text, block));
    }
  });
  return withoutRestatements(out);
}

/** Where a clause's claim ends before an account of the filing (FILING_TAIL); null if nothing is left before it. */
function filingTail(text: string, c: Unit): number | null {
  const raw = text.slice(c.start, c.end);
  FILING_TAIL.lastIndex = 0;
  const m = FILING_TAIL.exec(raw);
  if (m === null) return c.end;
  const tail = normalizeHebrew(raw.slice(m.index + m[0].length));
  if (hasCue(tail)) return c.end;
  return normalizeHebrew(raw.slice(0, m.index)).split(' ').length < 3 ? null : c.start + m.index;
}
