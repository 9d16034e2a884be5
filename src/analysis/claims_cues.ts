// The words by which a decision reports a named party's claim (claims_decisions.ts reads a decision with
// them): who the parties are called, the verbs and phrases of arguing, the pronouns that refer back to a
// party (by gender and number), and where, inside one sentence, a second claim begins.
import type { ClaimParty } from '../db/schema/analysis.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { partyCue } from './claims_common.ts';

export const PARTY_WORD = `(?:ה)?(?:עוררימ|עוררות|עוררת|עורר|מערערימ|מערערת|מערער|עותרימ|עותרת|עותר|משיבימ|משיבות|משיבה|משיב|מבקשימ|מבקשת|מבקש|וועדה המקומית|ועדה המקומית|וועדה|ועדה|עירייה|מתנגדימ|מתנגד)(?: [2-9])?(?: ה?היתר)?`;

/** A party's representative before its name: «ב"כ העוררים», «באת כוח המשיבה». */
const REP = '(?:בכ |בא כוח |באת כוח |באי כוח )?';

/** Verbs of arguing («וטוענת» too, and «מבקש לקבוע»): what makes a sentence about a party a report of its claim. */
export const ARGUING =
  'ו?(?:טוענ\\S*|טענ(?:ה|ו)?|סבור\\S*|גורס\\S*|מוסיפ\\S*|הוסיפ\\S*|מדגיש\\S*|הדגיש\\S*|(?:משיג|השיג|מלינ|הלינ)\\S* (?:על|כנגד|נגד|כי)|השיב\\S* (?:כי|ש)|(?:מפרט|פירט|מנמק|נימק)\\S* (?:מדוע|כי|ש)|מבקש\\S* (?:להדגיש|לקבוע)|ביקש\\S* (?:להדגיש|לקבוע))';

/** Verbs of arguing that come before the party they report («טוענת המשיבה», «מפרטת המשיבה מדוע»). */
const ARGUING_FIRST =
  '(?:ו)?(?:טוענ\\S*|טענ(?:ה|ו)?|סבור\\S*|מוסיפ\\S*|הוסיפ\\S*|גורס\\S*|מלינ\\S*|משיג\\S*|מדגיש\\S*|הדגיש\\S*)';

/** A sentence in the committee's voice that reports a named party's claim, and where the party is named. */
export const REPORTED: RegExp[] = [
  // «לטענת העוררים», «לגישת המשיבה», «לדידם של העוררים», «לשיטתה של המשיבה», «לדברי ב"כ המבקש».
  new RegExp(
    `(?:^| )(?:ו|ש|וש|כ|וכ)?(?:לטענת|לגישת|לשיטת|לעמדת|לדברי|לדעת|לדיד|לפי טענת|כטענת)(?:ה|מ|ו|נ)?(?: של)? (?<who>${REP}${PARTY_WORD})(?: |$)`,
  ),
  // «טענות העותר כי …», «טענת המשיבה ש…», «עמדת המשיבה היא כי …», «טענתם המרכזית של העוררים היא כי …».
  new RegExp(
    `(?:^| )(?:ו)?(?:טענות|טענת|טענתה|טענתמ|טענתו|טענותיה|טענותיהמ|עמדת|עמדתה|עמדתמ)(?: ה?(?:עיקרית|מרכזית|עיקריות|מרכזיות|ראשונה|נוספת|חלופית))?(?: של)? (?<who>${REP}${PARTY_WORD}) (?:(?:היא|הינה|הנה|היתה|הנ|הינמ) )?(?:כי|ש|לפיה)`,
  ),
  // «העוררים טוענים כי», «המשיבה סבורה», «ב"כ העוררים טען», «המשיבה 2 הוסיפה כי», «העוררים בתגובתם טענו».
  // Only a verb of arguing: «העוררים הגישו», «המשיבה החליטה» tell what a party did; a noun of arguing after
  // other words («העוררים הגישו את טענותיהם») only with what it says («טענותיהם כי …»).
  new RegExp(
    `(?:^| )(?<who>${REP}${PARTY_WORD}) (?:\\S+ ){0,3}?(?:(?<verb>${ARGUING})(?: |$)|טענ(?:ות|ת)\\S* (?:כי|ש|לפיה|לפיהנ) )`,
  ),
  // «טוענת המשיבה כי», «סבורים העוררים», «הוסיף ב"כ העוררים», «מפרטת המשיבה מדוע».
  new RegExp(`(?:^| )(?<verb>${ARGUING_FIRST}) (?<who>${REP}${PARTY_WORD})(?: |$)`),
  new RegExp(
    `(?:^| )(?:ו)?(?:מפרט|פירט|מנמק|נימק|מסביר|הסביר)\\S* (?<who>${REP}${PARTY_WORD}) (?:מדוע|כי|ש)`,
  ),
  // The party that opens the sentence, its verb of arguing after words about it («העוררת, אישה מבוגרת
  // החוששת לשקטה, טוענת …», «המשיבה דוחה את טענות העוררים וטוענת …»), agreeing with it, no «כי» between.
  new RegExp(`^(?:ו)?(?<who>${REP}${PARTY_WORD}) (?:(?!כי )\\S+ ){4,12}?(?<verb>${ARGUING})(?: |$)`),
  // «העוררים כי …»: the verb left out at the opening of a sentence.
  new RegExp(`^(?<who>${REP}${PARTY_WORD}) כי `),
  // «נטען על ידי העוררים כי», «כך נטען ע"י המשיבה»: impersonal in form, but a named side's.
  new RegExp(`(?:^| )(?:ו)?(?:נטענ|נטענה|נטענו) (?:על ידי|עי) (?<who>${REP}${PARTY_WORD})(?: |$)`),
  // «העירייה הגישה בקשה לסלק את הערר, בנימוק ש…»: what a party asked, with the reason it gave.
  new RegExp(`^(?:ו)?(?<who>${REP}${PARTY_WORD}) (?:\\S+ ){1,10}?(?:בנימוק|בטענה|בטענות|בנימוקימ)(?: |$)`),
];

/** A verb's gender and number by its ending: «טוענת», «טענה» feminine; «טוענים», «טענו» plural. */
function verbAgreement(verb: string): Agreement {
  const w = verb.split(' ')[0] ?? '';
  if (/(?:ימ|ו|ות)$/.test(w)) return 'p';
  if (/[תה]$/.test(w)) return 'fs';
  return 'ms';
}

/** Whether a party and the verb reported of it agree («המשיבה … וטוענת», not «העוררים וטוענת»). */
function agrees(who: string, verb: string | undefined): boolean {
  if (verb === undefined || /^(?:בכ|בא|באת|באי) /.test(who)) return true;
  const m = MENTION.exec(who.split(' ')[0] ?? '');
  if (m === null) return true;
  return mentionAgreement(m) === verbAgreement(verb);
}

/** Where a reported claim's words begin after its cue, if the sentence says anything after it. */
export function reportedWho(norm: string, introduces = false): { who: string; index: number } | null {
  for (const re of REPORTED) {
    const m = re.exec(norm);
    if (m === null) continue;
    // «… טוענים לה» cut off: a cue with less than two words after it reports nothing.
    const rest = norm
      .slice(m.index + m[0].length)
      .split(' ')
      .filter(Boolean);
    if (rest.length < 2 && !introduces) continue;
    if (!agrees(m.groups?.who ?? '', m.groups?.verb)) continue;
    return { who: m.groups?.who ?? '', index: m.index };
  }
  return null;
}

/** Gender and number: masculine or feminine singular, plural. */
type Agreement = 'ms' | 'fs' | 'p';

/** «לטענתם», «שלשיטתה», «היא סבורה כי», «במסגרתו היא טוענת»: a party named before, by gender and number. */
export const PRONOUN =
  /(?:^| )(?:(?:ו|ש|וש|כ)?(?:לשיטת|לטענת|לגישת|לעמדת|לדיד|לדברי)(?<sfx>מ|ה|ו|נ|המ|הנ)|(?:ו)?(?<pro>היא|הוא|המ|הנ) (?:טוענ\S*|טענ\S*|סבור\S*|גורס\S*|מוסיפ\S*|מדגיש\S*))(?: |$)/;

/** «לטענתה» as written, with the text before it: an attribution in the raw text. */
const ATTRIBUTION_RAW =
  /(?:ו|ש|וש|כ)?(?:לשיטת|לטענת|לגישת|לעמדת|לדיד|לדברי)(?:הם|הן|ם|ן|ה|ו)(?=[\s,.:;)"']|$)/g;

/** A word that opens a clause: «שכן לטענתם», «ולכן לשיטתה», «משום שלטענתו». */
const CONJUNCTION = /(?:^|\s)(?:ו?שכן|משום|כי|מאחר|היות|ו?לכן|לפיכך|ו?אולם|אך|וזאת|ואילו|ומנגד|ומאידך)\s*$/;

/**
 * Whether an attribution («לטענתה») opens the sentence or a clause (its first words, after a comma, colon,
 * bracket or conjunction): «לטענתו, …», «…, שלטענתם, …». One trailing inside a clause of narration
 * («נתנה פטור חלקי בלבד לטענתה») is an aside, not a report of a claim. A pronoun subject («היא טוענת») is a
 * clause by itself.
 */
export function attributionOpens(raw: string, m: RegExpExecArray): boolean {
  if (m.groups?.sfx === undefined) return true;
  ATTRIBUTION_RAW.lastIndex = 0;
  for (let a = ATTRIBUTION_RAW.exec(raw); a !== null; a = ATTRIBUTION_RAW.exec(raw)) {
    const before = raw.slice(0, a.index);
    if (/[\p{L}\p{N}]$/u.test(before)) continue;
    if (/^(?:ש|וש|כ)/.test(a[0]) || /(?:^|[,:;(])\s*$/.test(before) || CONJUNCTION.test(before)) return true;
    if (before.trim().split(/\s+/).length < 3) return true;
  }
  return false;
}

export function pronounAgreement(m: RegExpExecArray): Agreement {
  const s = m.groups?.sfx ?? '';
  const p = m.groups?.pro ?? '';
  if (s === 'ו' || p === 'הוא') return 'ms';
  if (s === 'ה' || p === 'היא') return 'fs';
  return 'p';
}

/** A party named in a word (with its prefixes: «מהמשיבה», «לעוררת»), and its gender and number. */
const MENTION =
  /^(?:ו|ש|מ|ל|ב|כ|וש|ומ|ול|וב|של)?(?:ה)?(?:(?<stem>עורר|מערער|עותר|משיב|מבקש|מתנגד)(?<end>ת|ה|ימ|ות)?|(?<fem>וועדה|ועדה|עירייה))$/;

function mentionAgreement(m: RegExpExecArray): Agreement {
  const end = m.groups?.end;
  return m.groups?.fem !== undefined || end === 'ת' || end === 'ה' ? 'fs' : end ? 'p' : 'ms';
}

export interface Mention {
  party: ClaimParty;
  agreement: Agreement;
}

/** The parties a text names, in order, each with the agreement a pronoun referring to it has. */
export function mentions(norm: string, party: (who: string) => ClaimParty | null): Mention[] {
  const words = norm.split(' ');
  const out: Mention[] = [];
  words.forEach((w, k) => {
    const m = MENTION.exec(w);
    if (m === null) return;
    const bare = w.replace(
      /^(?:ו|ש|מ|ל|ב|כ|וש|ומ|ול|וב|של)(?=ה?(?:עורר|מערער|עותר|משיב|מבקש|מתנגד|וועדה|ועדה|עירייה))/,
      '',
    );
    const p = party([bare, ...words.slice(k + 1, k + 3)].join(' '));
    if (p === null) return;
    out.push({ party: p, agreement: mentionAgreement(m) });
  });
  return out;
}

/** The party a pronoun refers to: the last named before it with its gender and number. */
export function referent(named: readonly Mention[], agreement: Agreement): ClaimParty | null {
  for (let k = named.length - 1; k >= 0; k--) {
    const n = named[k] as Mention;
    if (n.agreement === agreement) return n.party;
  }
  return null;
}

/** «בנימין טוענת מנגד», «ואילו היא סבורה»: the other side answering the claim before. */
export const OTHER_SIDE =
  /(?:^| )(?:(?:ו)?(?:טוענ\S*|טענ(?:ה|ו)|סבור\S*|גורס\S*|השיב\S*) (?:מנגד|מאידכ|לעומתו|לעומתה|לעומתמ)|(?:ו)?(?:מנגד|מאידכ|ואילו|לעומת זאת) (?:\S+ ){0,2}?(?:טוענ\S*|טענ(?:ה|ו)|סבור\S*|גורס\S*))(?: |$)/;

export const otherSide = (p: ClaimParty | null): ClaimParty | null =>
  p === null ? null : p === 'appellant' ? 'respondent' : 'appellant';

/** A second claim starts after a comma when the words after it open with a cue of their own. */
const CUE_AFTER_COMMA = new RegExp(
  `^(?:(?!כאשר |אשר |שכנ |כי |מאחר |היות |משומ |ולכנ |לכנ )\\S+ ){0,3}?(?:(?:ו|ש)?(?:לטענת|לשיטת|לגישת|לעמדת|לדברי) ${REP}${PARTY_WORD} |${ARGUING_FIRST} (?:${REP}${PARTY_WORD} )?(?:\\S+ )?(?:כי|ש|לפיה)|${REP}${PARTY_WORD} (?:\\S+ ){0,2}?${ARGUING} )`,
);

/** Offsets (in raw) of commas after which a new reported claim starts: [end of the one, start of the next]. */
export function cueCuts(raw: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /,\s+/g;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    const from = m.index + m[0].length;
    const next = raw.slice(from).search(/[,;]/);
    const chunk = normalizeHebrew(raw.slice(from, next === -1 ? undefined : from + next));
    if (CUE_AFTER_COMMA.test(`${chunk} `)) out.push([m.index, from]);
  }
  return out;
}

/** Whether a text reports a party's claim by its own words (a cue, not only by carrying on). */
export const hasCue = (norm: string) =>
  reportedWho(norm) !== null || PRONOUN.test(norm) || OTHER_SIDE.test(norm);

export { partyCue };
