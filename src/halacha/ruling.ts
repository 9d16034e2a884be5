// How a sentence of a ruling reads, for the holding reader: whose voice it is in (a party's or the court's),
// whether it states a general rule (normative language, a rule supported by a citation) or speaks of this case
// only (its parties, its dates, amounts and land, «בענייננו»), and whether it is an order (costs, the outcome,
// a direction to the parties). Sentences are normalised with normalizeHebrew (final letters folded) unless
// said otherwise; the raw text is read for what normalising drops (dates, amounts, percentages).
import { cueList, hasCue } from '../analysis/layout.ts';
import { findOutcomes } from '../legal/outcomes.ts';
import { findProceedings } from '../legal/proceedings.ts';

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
  'לדיד',
  'בא כוח',
  'באת כוח',
  'בכ',
  'נטענ',
  'עוד נטענ',
);
/** Within its opening words: «העותרת טוענת כי», «המבקשת סבורה», «עוד טען העורר», «המשיבים הפנו»… */
const PARTY_VERB =
  /^(?:\S+ ){0,4}(?:טוענ|טענו(?= |$)|טענ(?= |$)|סבור|מוסיפ|הוסיפ|מדגיש|הדגיש|הפנ|מפנ|מבקש\S* לקבוע)/;
/** A sentence in the court's own voice again, after a party's: «אין בידינו לקבל טענה זו», «איננו מקבלים». */
const OWN_VOICE = cueList(
  'אינ בידינו',
  'אינ בידי',
  'איננו מקבלימ',
  'אינני מקבל',
  'לא מצאנו',
  'דינ הטענה',
  'דינה של טענה',
  'אינ לקבל',
  'אולמ',
  'ואולמ',
  'ברמ',
  'לדעתנו',
  'לדעתי',
  'לטעמנו',
  'לטעמי',
  'אנו סבורימ',
  'איננו סבורימ',
  'אני סבור',
);
/** The court or the committee speaking in the first person: never a party's voice, whatever verb follows. */
const FIRST_PERSON = /^(?:\S+ ){0,1}(?:אני|אנו|אנחנו|איננו|אינני|לדעתי|לדעתנו|לטעמי|לטעמנו)(?: |$)/;

/** A sentence in a party's voice. */
export const partyVoice = (norm: string): boolean =>
  !FIRST_PERSON.test(norm) &&
  (hasCue(norm.split(' ').slice(0, 6).join(' '), PARTY_VOICE) || PARTY_VERB.test(norm));

/** A sentence back in the court's own voice after a party's. */
export const ownVoice = (norm: string): boolean => FIRST_PERSON.test(norm) || hasCue(norm, OWN_VOICE);

/**
 * The parties of this case, by the names decisions give them (with a prefix chain: «שהעוררת», «לעוררים»), a
 * claim or stance referred to as this one («טענה זו», «עמדה זו», «טענתם»), and the words that point at this
 * case («בענייננו», «במקרה דנן», «שלפנינו»).
 */
// The article (or «ל/ב/כ» in its place) is required: «מעוררת שאלה», «לעורר» are verbs, not the appellant.
const PARTY =
  /(?:^| )(?:ו|ש|כש)?(?:ה|מה|[לבכ](?!עורר(?= |$)))(?:עוררימ|עוררות|עוררת|עורר|משיבה|משיבימ|משיבות|משיב|עותרת|עותרימ|עותרות|עותר|מערערת|מערערימ|מערערות|מערער|מבקשת|מבקשימ|מבקשות)(?= |$)/;
const THIS_CASE = cueList(
  'בענייננו',
  'ובענייננו',
  'בעניינ דנ',
  'במקרה דנ',
  'במקרה שלפנינו',
  'במקרה זה',
  'בעניינ שלפנינו',
  'בעניינ זה',
  'בנסיבות העניינ',
  'בנסיבות המקרה',
  'בנסיבות אלה',
  'שלפנינו',
  'שלפניי',
  'כאנ',
  'טענה זו',
  'טענות אלה',
  'עמדה זו',
  'טענתמ',
  'טענתו',
  'טענתה',
);
/** A date (5.3.2021, 05/03/21), an amount of money, a percentage, a block or parcel: facts of this case. */
const FACT_RAW =
  /\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|ש["״”']ח|₪|\d\s?%|(?:^|\s)(?:בשנת|משנת|מאז שנת|בחודש)\s\d{4}/;
const LAND = cueList('גוש', 'חלקה', 'חלקות', 'מגרש מס');

/** A sentence about this case only: its parties, its facts, the claim in front of the court. */
export function caseSpecific(raw: string, norm: string): boolean {
  return PARTY.test(norm) || hasCue(norm, THIS_CASE) || hasCue(norm, LAND) || FACT_RAW.test(raw);
}

/** The verbs and words of an order: costs, payments, a direction to the parties or to the deciding appraiser. */
const ORDER =
  /(?:^| )[וש]?(?:ישלמו|ישלמ|תשלמ|תשלמנה|ישאו|יישאו|ישא|יישא|תישא|תשא|הוצאות|בהוצאות|הוצאותיו|הוצאותיה|הוצאותיהמ|להוצאות|טרחת|מוחזרת|מוחזר|מוחזרימ|יבוטל|תבוטל|מבוטלת|מבוטל|יינתנ|ינתנ|תינתנ|מורימ|מורה|מורות)(?= |$)/;

/** An order or the outcome itself («הערר נדחה», «העוררים ישלמו הוצאות», «השומה מוחזרת לשמאי המכריע»). */
export function isOrder(raw: string, norm: string): boolean {
  return ORDER.test(norm) || findOutcomes(raw).some((o) => o.role === 'own');
}

/**
 * Normative language: what must, may or may not be done, and the words of a rule (ככלל, הכלל, המבחן, העיקרון,
 * הנטל; «הלכה» only in a cue: «ההלכה הקודמת בוטלה» states none). «יש ל…»/«אין ל…» read with the infinitive after them; «כלל» only as a noun with a word after
 * it («אינה מזכירה אותה כלל» is "at all"). Returns the marker as written, or null.
 */
const NORMATIVE: [string, RegExp][] = [
  ['יש ל', /(?:^| )ו?יש ל\S{2,}/],
  ['אין ל', /(?:^| )ו?אינ (?:מקומ |מניעה |חובה )?ל\S{2,}/],
  ['ככלל', /(?:^| )ו?ככלל(?= |$)/],
  ['כלל', /(?:^| )[וש]?ה?כלל(?= \S)/],
  ['המבחן', /(?:^| )[וש]?המבחנ(?= |$)/],
  ['העיקרון', /(?:^| )[וש]?ה?עיקרונ(?= |$)/],
  ['הנטל', /(?:^| )[וש]?ה?נטל(?= |$)/],
  ['מוטל', /(?:^| )[וש]?מוטל(?:ת|ימ|ות)?(?= |$)/],
  ['חייב', /(?:^| )[וש]?(?:חייב|חייבת|חייבימ|חייבות|חובה|מחויב|מחויבת)(?= |$)/],
  ['רשאי', /(?:^| )[וש]?(?:אינו |אינה |אינמ )?(?:רשאי|רשאית|רשאימ|מוסמכ|מוסמכת)(?= |$)/],
  ['נדרש', /(?:^| )[וש]?(?:נדרש|נדרשת|נדרשימ|צריכ|צריכה|צריכימ|ראוי|ראויה)(?= |$)/],
  ['על … ל', /^(?:ו)?על (?:\S+ ){1,3}ל\S{2,}/],
];

export function normativeMarker(norm: string): string | null {
  for (const [marker, re] of NORMATIVE) if (re.test(norm)) return marker;
  return null;
}

/** A sentence that refers the reader to authority: «ראו ע"א …», «והשוו …», «יפים לעניין זה דברי …». */
const SEE =
  /^(?:ו?ראו|ר|השוו|והשוו|עוד ראו|ראו והשוו|יפימ לעניינ זה|יפימ הדברימ|כפי שנקבע|כפי שנפסק|כך נקבע|כך נפסק)(?: |$)/;

/** A sentence that cites a ruling (a proceeding number in it). */
export const cites = (raw: string): boolean => findProceedings(raw).length > 0;

/** A sentence whose point is the reference to authority, supporting the statement before it. */
export const seeCitation = (raw: string, norm: string): boolean => cites(raw) && SEE.test(norm);

/** A ruling named to set it apart («שם נדונה שאלה אחרת», «עניינו שונה»): no rule of this one. */
const DISTINGUISH = cueList(
  'שונה',
  'שונימ',
  'נדונה',
  'נדונ',
  'אינו רלוונטי',
  'אינה רלוונטית',
  'אינו דומה',
  'אינה דומה',
);
export const distinguishes = (norm: string): boolean => hasCue(norm, DISTINGUISH);
