// The one reader of a decision's outcome in Hebrew legal text: a few named rules find every way an appeal,
// petition, claim or application is said to be accepted (fully or in part) or rejected, and each mention is
// told apart as the document's OWN outcome (present tense, «דין הערר», «אנו דוחים», the closing part) or the
// outcome of the decision under review recited in the background («ועדת הערר דחתה את הערר», «לפיה נדחה
// הערר»). Conditionals, questions, parties' claims and interlocutory requests are no outcome. Never throws.
import type { Outcome } from '../db/schema/vocabulary.ts';
import { findProceedings } from './proceedings.ts';
import { Q } from './text.ts';

export type OutcomeRule = 'stated' | 'inverted' | 'doomed' | 'decided' | 'resolved' | 'ordered' | 'absolute';

export interface OutcomeSpan {
  start: number;
  end: number;
  text: string;
}

export interface OutcomeMention {
  value: Outcome;
  /** The document's own outcome, or that of the decision under review. */
  role: 'own' | 'prior';
  rule: OutcomeRule;
  span: OutcomeSpan;
}

export interface OutcomeReading {
  own: { value: Outcome; span: OutcomeSpan } | null;
  prior: { value: Outcome; span: OutcomeSpan } | null;
}

const L = 'א-ת';
const START = `(?<![${L}])`;
const END = `(?![${L}])`;

/** The proceedings whose outcome counts: appeal, petition, claim, application, further hearing (and plurals). */
const NOUN = [
  `בקשת\\s+(?:ה)?רשות\\s+(?:ל)?(?:ה)?ער(?:עור|ער|ור)\\S*`,
  `(?:ה)?בקשה\\s+ל(?:מתן\\s+)?רשות\\s+(?:ל)?ער(?:עור|ער|ור)\\S*`,
  `(?:ה)?דיון\\s+(?:ה)?נוסף`,
  `(?:ה)?(?:עת${Q}מ|עמ${Q}נ|בר${Q}[מם]|רע${Q}א|עע${Q}[מם])`,
  `(?:ה)?(?:עררים|ערעורים|עתירות|תביעות|תובענות|ערר|ערעור|עתירה|תביעה|תובענה|בקשה)`,
  `(?:עררי|ערעורי|עתירות|תביעות|ערר|ערעור|עתירת|תביעת|תובענת|בקשת)(?:ו|ה|ם|ן|נו|הם|הן)?`,
].join('|');
/** A noun as subject: after an optional conjunction, never the «הערר» of «ועדת הערר». */
const SUBJECT = `${START}(?<!ועד(?:ת|ות)\\s+)(?:[וש]|כש)?(?<noun>${NOUN})${END}`;
/** The party a construct noun names: «עתירת העותרים», «ערר של העוררת». */
const OWNER = `(?:\\s+(?:של\\s+)?ה(?:עורר|מערער|עותר|מבקש|תובע|משיב)\\S*)?`;
/** What may stand between the noun and its verb: «הערר שבפנינו אפוא נדחה». */
const MOD = `(?:\\s+(?:שבפנינו|שלפנינו|שבפניי|דנן|הנוכחי|הנדון|זה|זו|שבכותרת|כולו|כולה|כולם|אפוא|איפוא|בזאת|בזה|לפיכך|לכן|אם\\s+כן|כאמור|(?:גם|אף)\\s+(?:הוא|היא|הם)|על\\s+כל\\s+חלקיו|בעיקרו|בעיקרה|\\([^()\\n]{1,40}\\)|ש(?:הוגש|הגיש)\\S*(?:\\s+(?:על[\\s-]*ידי|ע${Q}י|מטעם)\\s+\\S+)?))`;
const PART = `ב?חלקו|בחלקה|בחלקם|בחלקן|ברובו|ברובה|ברובם|חלקית|באופן\\s+חלקי|בחלק\\s+מ\\S+`;
const FULL = `במלואו|במלואה|במלואם|במלואן|על\\s+כל\\s+חלקיו`;
const QUAL = `(?:\\s*,?\\s*(?<qual>${PART}|${FULL})${END})?`;
/** «…מתקבל בחלקו ונדחה בחלקו / ביתרו» is one partial outcome. */
const REST = `(?:\\s*,?\\s*ו(?:נדח\\S*|מתקבל\\S*)\\s+(?:ב?חלקו|בחלקה|בחלקם|בחלקן|ביתר\\S*|בשאר\\S*)${END})?`;
const SHAF = `(?:\\s+על\\s+הסף)?`;
/** Intransitive verbs: rejected / accepted, present or past. */
const PASSIVE = `(?<verb>נדח(?:ה|ית|ים|ות|תה|ו)|מתקבל(?:ת|ים|ות)?|התקבל(?:ה|ו)?|נתקבל(?:ה|ו)?|(?:מסולק|סולק)(?:ת|ה|ים|ו)?(?=\\s+על\\s+הסף))`;
const OBJECT = `(?:את\\s+)?(?<noun>${NOUN}|אותו|אותה|אותם|אותן)${END}`;
/** Transitive verbs with their subject (we, the committee, a court): reject / accept / strike out in limine. */
const ACTIVE = `(?:(?:אנו|אנחנו|הננו|אני|הנני)\\s+)?(?<pre>[וש])?(?<verb>דוח(?:ה|ים|ות)|מקבל(?:ת|ים|ות)?|דח(?:ה|תה|ו|ינו|יתי)|קיבל(?:ה|ו|נו|תי)?|קבל(?:ה|ו|נו|תי)?|סילק(?:ה|ו|נו)?|סלק(?:ה|ו)?)`;

const RULES: readonly { name: OutcomeRule; re: RegExp }[] = [
  // «הערר נדחה», «העתירה מתקבלת בחלקה», «העררים נדחים», «הערר מתקבל בחלקו ונדחה בחלקו».
  {
    name: 'stated',
    re: new RegExp(
      `${SUBJECT}${OWNER}${MOD}{0,3}(?<rel>\\s*,?\\s+(?:אשר|שגם\\s+(?:הוא|היא)))?(?<neg>\\s+לא)?\\s+(?<cond>(?:היה|הייתה|היו)\\s+)?${PASSIVE}${END}${SHAF}${QUAL}${REST}`,
      'gu',
    ),
  },
  // «לפיה נדחה הערר», «נתקבל באופן חלקי הערר», «בו נדחתה עתירה».
  {
    name: 'inverted',
    re: new RegExp(
      `${START}(?<pre>[וש])?${PASSIVE}${END}${SHAF}${QUAL}\\s+(?:בזאת\\s+|אפוא\\s+)?(?<noun>${NOUN})${END}`,
      'gu',
    ),
  },
  // «דין הערר להתקבל בחלקו», «דין העתירה להידחות», «הערר דינו להידחות».
  {
    name: 'doomed',
    re: new RegExp(
      `${START}(?:[וש])?(?:דין\\s+(?:ה)?(?<noun>${NOUN})${OWNER}${MOD}{0,2}|(?<noun2>${NOUN})${OWNER}${MOD}{0,2}\\s+דינו|דינ[וה]\\s+של\\s+(?<noun3>${NOUN}))\\s+(?<verb>להתקבל|להידחות|להדחות)${END}${SHAF}${QUAL}${REST}`,
      'gu',
    ),
  },
  // «אנו דוחים את הערר», «ועדת הערר דחתה את הערר», «דחה בית המשפט קמא את העתירה», «שסילקה על הסף ערר».
  {
    name: 'decided',
    re: new RegExp(
      `${START}${ACTIVE}${END}(?:\\s+(?<pq>חלקית|באופן\\s+חלקי))?(?:${SHAF}\\s+${OBJECT}|(?:\\s+[^\\s.;:!?]+){1,7}?\\s+את\\s+(?<noun2>${NOUN})${END})${SHAF}${QUAL}${REST}`,
      'gu',
    ),
  },
  // «יש לקבל את הערר», «אין מקום לקבל את הערר» (rejection), «החלטנו לדחות את העתירה».
  {
    name: 'resolved',
    re: new RegExp(
      `${START}ו?(?<verb>לקבל|לדחות|לסלק)${END}(?:\\s+(?<pq>חלקית|באופן\\s+חלקי))?${SHAF}\\s+${OBJECT}${SHAF}${QUAL}${REST}`,
      'gu',
    ),
  },
  // «אנו מורים על דחיית הערר», «התוצאה היא קבלת הערר בחלקו».
  {
    name: 'ordered',
    re: new RegExp(
      `${START}(?:מורים|מורה|הורינו|הוחלט|החלטנו|מחליטים|מחליטה|התוצאה(?:\\s+היא)?\\s*:?)\\s+(?:על\\s+)?(?<verb>דחיית|קבלת|קבלה\\s+חלקית\\s+של|קבלה\\s+מלאה\\s+של)\\s+(?<noun>${NOUN})${END}${SHAF}${QUAL}${REST}`,
      'gu',
    ),
  },
  // A petition granted: «הצו על תנאי נעשה מוחלט», «ניתן בזאת צו מוחלט».
  {
    name: 'absolute',
    re: new RegExp(
      `${START}(?:(?<noun>הצו)\\s+(?:על\\s+תנאי\\s+)?(?<verb>נעשה|הופך|ייעשה|יהפוך)\\s+(?:ל)?מוחלט|(?<verb2>ניתן|ניתנים|ניתנו)\\s+(?:בזאת\\s+)?(?:צו|צווים)\\s+מוחלט(?:ים)?)${END}`,
      'gu',
    ),
  },
];

/** The text of the clause before a match: back to the last sentence mark (and, `comma`, comma). */
function clauseBefore(text: string, at: number, comma: boolean): string {
  const stop = comma ? /[.;:!?\n,]/ : /[.;!?\n]/;
  let i = at - 1;
  // A full stop inside a date or a number (2.2.2021, 1.5) does not end the sentence.
  const ends = (k: number) =>
    stop.test(text[k] ?? '') &&
    !(/[.,]/.test(text[k] ?? '') && /\d/.test(text[k - 1] ?? '') && /\d/.test(text[k + 1] ?? ''));
  while (i >= 0 && at - i < 400 && !ends(i)) i--;
  return text.slice(i + 1, at);
}

const word = (list: string) => new RegExp(`(?:^|[\\s,(])(?:${list})(?=$|[\\s,)])`, 'u');
/** A condition or a question: «אילו היה מתקבל», «אם יתקבל», «האם יש לקבל». */
const CONDITION = word(
  'אילו|לו|אם(?!\\s+כן)|ככל\\s+ש\\S*|במידה\\s+ו\\S*|במידה\\s+ש\\S*|האם|שמא|פן|היה|הייתה|היו|עשוי\\S*|ייתכן|יתכן',
);
/** A party's claim: «המשיבה טוענת כי דין הערר להידחות», «העוררים ביקשו לקבל את הערר». */
const CLAIM = word(
  'טוען|טוענת|טוענים|טוענות|טען|טענה|טענו|לטענת\\S*|לשיטת\\S*|לעמדת\\S*|מבקש|מבקשת|מבקשים|מבקשות|ביקש|ביקשה|ביקשו|עותר|עותרת|עותרים|דורש\\S*|עתר\\S*',
);
const NEGATION = /(?:^|\s)(?:לא|אין|איננו|אינני|אינה|אינו|אינם|אינך)(?:\s+\S+){0,4}\s*$/u;
/** The relative clause of a decision recited: «החלטה … לפיה / בגדרה / אשר דחתה». */
const RELATIVE =
  /(?:^|[\s,(])ו?(?:לפיה|לפיו|שלפיה|בגדרה|בגדרו|שבגדרה|במסגרתה|במסגרתו|שבמסגרתה|בה|בו|שבה|שבו|אשר|שבהן|בהן|שבהם)(?:\s+\S+){0,3}\s*$/u;
/** Narrative of what happened before: a date, «בפסק הדין», «בהחלטה». */
const NARRATIVE =
  /(?:^|[\s,(])(?:ביום|בתאריך|בשנת|בפסק\s+(?:ה)?דין|בפסק\s+דינו|בהחלטה|בהחלטתה|בהחלטתו|לאחר|אחרי|משעה)(?=\s|$)|\d{1,2}[./]\d{1,2}[./]\d{2,4}/u;
/** Requests in the course of a proceeding: a rejected one is no outcome. */
const INTERLOCUTORY =
  /עיכוב|הקפא|החלפ|מינוי|צירוף|תיקון|הארכת\s+מועד|לעיין\s+מחדש|עיון\s+מחדש|גילוי|פסלות|פסילה|סילוק|לסלק|ביניים|צו\s+מניעה|סעד\s+זמני|בקשה\s+ל(?:פסיקת\s+)?הוצאות|דחיית\s+מועד|איחוד|פיצול/u;
/** A 3rd-person past verb of a court or committee: a decision recited. */
const PAST_ACTIVE = /^(?:דח(?:ה|תה|ו)|קיבל(?:ה|ו)?|קבל(?:ה|ו)?|סילק(?:ה|ו)?|סלק(?:ה|ו)?)$/u;
/** Past-only intransitive forms («נדחתה», «התקבלה»): a decision recited, not this one's operative words. */
const PAST_ONLY = /^(?:נדח(?:תה|ו)|התקבל(?:ה|ו)|נתקבל(?:ה|ו)?|סולק\S*)$/u;
/** A closing part: «סוף דבר», «התוצאה», «לסיכום». */
const CLOSING =
  /(?:^|[\n.:;]\s*|\d+\.\s*)(?:סוף\s+דבר|התוצאה(?:\s+היא)?|לסיכום|סיכומו\s+של\s+דבר|סיכום)(?=[\s:,])/gu;
/** The document reviews a court's or committee's decision: an appeal or petition before a court. */
const REVIEW = /ערעור|מערער|עתיר|עותר|בית\s+(?:ה)?משפט|בימ|ביהמ|קמא/u;

const APPEAL = /ערר|ערעור|עתיר|רשות|עת.מ|עמ.נ/u;
/** The parties a petition names, and an appellant (an appeal from a court reviews its judgment on a claim). */
const PETITIONER = /(?<![א-ת])ו?ה?עותר(?:ת|ים|ות)?(?![א-ת])/u;
const APPELLANT = /מערער/u;
const RECITED_AFTER = new RegExp(
  `^\\s*(?:(?:על[\\s-]*ידי|ע${Q}י|בידי)\\s+(?:ה)?(?:ו?ועד|בית|בימ|ביהמ|השופט|כב|השמאי)|.*(?:ומכאן|מכאן|על\\s+כך)\\s+(?:ה)?(?:ערעור|עתיר|בקש|ערר))`,
  'u',
);
const OBJECTOR = /(?<![א-ת])ו?ה?עורר(?:ת|ים|ות)?(?![א-ת])/u;
/** A decision of another body, or its own («החלטת ועדת הערר», «בהחלטתה מיום …»), before an infinitive. */
const DECISION_OF = /(?:^|[\s(])ו?ה?ב?ה?החלט(?:ת|תה|תו|תם|תן)(?![א-ת])(?:\s+\S+){0,12}\s*,?\s*$/u;
const CLAIM_NOUN = /(?<![א-ת])ו?ה?(?:תביע|תובענ)/u;
const COURT = new RegExp(`בית\\s+(?:ה)?משפט|בי?ה?מ${Q}ש|פסק\\s+(?:ה)?דין`, 'u');

/** For each position, whether it is inside a quotation (ASCII or typographic marks, gershayim between
 * letters aside); a line break closes any. One pass, so a long text with many mentions stays linear. */
function quotations(text: string): Uint8Array {
  const inside = new Uint8Array(text.length + 1);
  let on = false;
  for (let i = 0; i < text.length; i++) {
    inside[i] = on ? 1 : 0;
    const c = text[i] ?? '';
    if (c === '\n' || c === '»') on = false;
    else if (c === '«' || c === '„') on = true;
    else if (c === '"' || c === '“' || c === '”') {
      const between = /[א-ת]/.test(text[i - 1] ?? '') && /[א-ת]/.test(text[i + 1] ?? '');
      if (!between) on = !on;
    }
  }
  return inside;
}

function outcomeOfVerb(verb: string, qual: string | undefined, negated: boolean): Outcome | null {
  const reject = /^(?:נדח|להידח|להדח|דוח|דח|לדחות|דחיית|מסולק|סולק|סילק|סלק|לסלק)/u.test(verb);
  if (negated) return reject ? null : 'rejection';
  if (reject) return 'rejection';
  if (/קבלה\s+חלקית/u.test(verb) || (qual !== undefined && new RegExp(`^(?:${PART})$`, 'u').test(qual)))
    return 'partial_acceptance';
  return 'full_acceptance';
}

/** Every outcome mention in a text, in reading order, each with its role. */
export function findOutcomes(text: string): OutcomeMention[] {
  const raw: { start: number; end: number; rule: OutcomeRule; groups: Record<string, string | undefined> }[] =
    [];
  for (const { name, re } of RULES) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      raw.push({ start: m.index, end: m.index + m[0].length, rule: name, groups: { ...m.groups } });
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  raw.sort((a, b) => a.start - b.start || b.end - a.end);
  const closing = [...text.matchAll(CLOSING)].map((m) => m.index ?? 0).pop() ?? -1;
  const firstParagraph = Math.min(
    text.search(/\n\s*\n/u) === -1 ? text.length : text.search(/\n\s*\n/u),
    400,
  );
  const inQuote = quotations(text);
  // The document is an appeal or a petition (its parties appellants or petitioners, none an appellant to a
  // committee): then a ערר it names is a committee's, under review.
  const reviewing = (APPELLANT.test(text) || PETITIONER.test(text)) && !OBJECTOR.test(text);
  const out: OutcomeMention[] = [];
  let taken = -1;
  for (const r of raw) {
    if (r.start < taken) continue;
    const mention = judge(text, r, closing, firstParagraph, inQuote, reviewing);
    if (mention === null) continue;
    out.push(mention);
    taken = r.end;
  }
  return out;
}

function judge(
  text: string,
  r: { start: number; end: number; rule: OutcomeRule; groups: Record<string, string | undefined> },
  closing: number,
  firstParagraph: number,
  inQuote: Uint8Array,
  reviewing: boolean,
): OutcomeMention | null {
  const g = r.groups;
  const verb = g.verb ?? g.verb2 ?? '';
  const noun = g.noun ?? g.noun2 ?? g.noun3 ?? '';
  const clause = clauseBefore(text, r.start, true);
  const sentence = clauseBefore(text, r.start, false);
  const after = text.slice(r.end, r.end + 80).split(/[.;!?\n]/u)[0] ?? '';
  if (g.cond !== undefined || CONDITION.test(clause)) return null;
  const operative =
    r.rule !== 'inverted' && !PAST_ONLY.test(verb) && !(r.rule === 'decided' && PAST_ACTIVE.test(verb));
  // A pronoun object names what a recited decision rejected only if its referent is known: not read.
  if (/^אות/u.test(noun) && (r.rule !== 'decided' || PAST_ACTIVE.test(verb))) return null;
  if (operative && CLAIM.test(sentence)) return null;
  if (
    /בקש/u.test(noun) &&
    !/רשות/u.test(noun) &&
    (INTERLOCUTORY.test(text.slice(Math.max(0, r.start - 250), r.end) + after) ||
      /\sזו$/u.test(text.slice(r.start, r.end + 4).trim()))
  )
    return null;
  if (/^(?:ו?זו|זאת)/u.test(after.trim()) && /בקש/u.test(noun)) return null;
  const negated =
    g.neg !== undefined || (r.rule === 'resolved' || r.rule === 'decided' ? NEGATION.test(clause) : false);
  const resolvedBy =
    r.rule === 'resolved' &&
    /(?:^|\s)(?:יש|הננו|החלטנו|החלטתי|מחליטים|מחליטה|מחליט|אציע|מציע|מציעה|הייתי\s+מציע\S*|ראינו|מצאנו|מצאתי|ראיתי|הוחלט|מורים|הגענו\s+\S+\s+מסקנה\s+כי\s+יש|החליט\S*)(?:\s+\S+){0,3}\s*$/u.test(
      clause,
    );
  // «ערעור על החלטת ועדת הערר … לדחות את הערר»: the infinitive of another body's decision, recited.
  const decisionOf = r.rule === 'resolved' && !resolvedBy && DECISION_OF.test(sentence);
  if (r.rule === 'resolved' && !negated && !resolvedBy && !decisionOf) return null;
  // «קיבלה באופן חלקי את הערר»: the part written between the verb and its object.
  const value = outcomeOfVerb(verb, g.qual ?? g.pq, negated);
  if (value === null) return null;
  const span = { start: r.start, end: r.end, text: text.slice(r.start, r.end) };
  const inClosing = closing !== -1 && r.start > closing;
  let role: 'own' | 'prior' = 'own';
  if (inQuote[r.start] === 1) role = 'prior';
  else if (
    g.rel !== undefined ||
    g.pre === 'ש' ||
    (RELATIVE.test(sentence) && !/אשר\s+(?:על|ל)\s*כן\s*,?\s*$/u.test(sentence))
  )
    role = 'prior';
  else if (
    (r.rule === 'stated' || r.rule === 'inverted') &&
    (PAST_ONLY.test(verb) || /^(?:נדחה|התקבל)$/u.test(verb)) &&
    !inClosing &&
    (findProceedings(sentence).length > 0 || /(?:^|\s)שם\s*$/u.test(sentence))
  )
    // The outcome of a precedent cited in the sentence («בעע״מ 1234/19 … שם נדחה הערעור»): neither.
    return null;
  else if (decisionOf || (r.rule === 'resolved' && /(?:^|\s)החליט(?:ה|ו)?(?:\s+\S+){0,3}\s*$/u.test(clause)))
    role = 'prior';
  else if (r.rule === 'decided' && PAST_ACTIVE.test(verb)) {
    // A digest opens with the committee's decision it reports: «ועדת הערר קיבלה את הערר…».
    const digest =
      r.start < firstParagraph &&
      /(?:^|\s)ועד(?:ת|ה)\s+(?:ה)?ערר(?:\s+[^\s()]+){0,6}\s*$/u.test(sentence) &&
      !REVIEW.test(text);
    role = digest ? 'own' : 'prior';
  } else if (PAST_ONLY.test(verb) && !inClosing) role = 'prior';
  else if (!inClosing && /^(?:נדחה|התקבל)$/u.test(verb) && NARRATIVE.test(sentence)) role = 'prior';
  // «נדחה על ידי ועדת הערר», «…, ומכאן הערעור»: a decision recited by its maker, or as what was appealed.
  if (role === 'own' && RECITED_AFTER.test(after)) role = 'prior';
  // An appeal or a petition is not itself a ערר: an appeals committee's ערר it names is the one under review.
  if (role === 'own' && reviewing && /^(?:[וש]|כש)?ה?ערר/u.test(noun)) role = 'prior';
  return { value, role, rule: r.rule, span };
}

/** The document's own outcome (in its closing part when it has one, else the last stated) and the first recited. */
export function readOutcome(text: string): OutcomeReading {
  const all = findOutcomes(text);
  const closing = [...text.matchAll(CLOSING)].map((m) => m.index ?? 0).pop() ?? -1;
  const own = all.filter((m) => m.role === 'own');
  const chosen = (closing === -1 ? undefined : own.find((m) => m.span.start > closing)) ?? own.at(-1);
  // The decision under review is the one on an appeal or petition; a permit or claim refused before it is
  // the fallback («הוועדה המקומית דחתה את הבקשה … ועדת הערר דחתה את הערר»).
  // A petition reviews an authority's or a committee's decision, never a court's judgment on a claim: a claim
  // a court is said to have accepted or rejected («קיבל בית המשפט את תביעת הפינוי») is history there.
  const petition = PETITIONER.test(text) && !APPELLANT.test(text);
  const judgedClaim = (m: OutcomeMention) =>
    CLAIM_NOUN.test(m.span.text) && COURT.test(text.slice(Math.max(0, m.span.start - 80), m.span.end));
  const recited = all.filter((m) => m.role === 'prior' && !(petition && judgedClaim(m)));
  const prior = recited.find((m) => APPEAL.test(m.span.text)) ?? recited[0];
  return {
    own: chosen === undefined ? null : { value: chosen.value, span: chosen.span },
    prior: prior === undefined ? null : { value: prior.value, span: prior.span },
  };
}

/** The distinct outcomes a text states as its own, in reading order (several means it is ambiguous). */
export function outcomesStated(text: string): Outcome[] {
  return [
    ...new Set(
      findOutcomes(text)
        .filter((m) => m.role === 'own')
        .map((m) => m.value),
    ),
  ];
}
