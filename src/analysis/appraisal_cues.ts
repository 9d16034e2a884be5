// The appraisal reader's cues: which words name which kind of figure, and the forms around them (a table row,
// a bullet, a column of the deciding figures, a sale, another appraiser's figure). One table, read by
// ./appraisal.ts and ./appraisal_segments.ts.
import type { FactKind, FactUnit } from '../db/schema/analysis.ts';
import { Q } from '../legal/text.ts';

export const UNIT: Record<FactKind, FactUnit> = {
  determining_date: 'date',
  value_prior: 'agorot',
  value_new: 'agorot',
  betterment: 'agorot',
  levy: 'agorot',
  price_per_sqm: 'agorot',
  area: 'sqm',
  coefficient: 'percent',
  injury: 'agorot',
  compensation: 'agorot',
  reasonable_reduction: 'agorot',
  claimed: 'agorot',
};

/** The unit a fact of this kind is stored in (a reduction given only as a share is in percent). */
export const unitOf = (kind: FactKind): FactUnit => UNIT[kind];

/** A word starts here (no Hebrew letter before it). */
const W = '(?<![א-ת])';
/** What turns a valuation into the prior or the new state: the plan's approval, its coming into force, the injury. */
const EVENT = '(?:ה?אישור|אישורה|כניסת|תחילת|מתן|פרסום|ה?פגיעה|ה?תכנית)';
const VALUE = '(?:ערך|ערכ|שווי|שוויי|שווים)';
const STATE_PRIOR = `מצב\\s+(?:ה?תכנוני\\s+)?ה?קודם`;
const STATE_NEW = `מצב\\s+(?:ה?תכנוני\\s+)?ה?חדש`;
const OTHER_LEVY = '(?:סלילה|ביוב|פיתוח|תיעול|ניקוז|מים|שצ"פ)';

// Each cue names the kind of the figures after it (up to the next cue). A betterment is «השבחה» named as
// itself: not the levy's («היטל ההשבחה»), not half of it («מחצית ההשבחה», «50% מההשבחה»), not a document
// («שומת ההשבחה»). The value before and after a plan is a value only where a valuation word leads to it.
export const CUES: [FactKind, RegExp][] = [
  ['determining_date', /(?:ה)?(?:מועד|יום)\s+ה?קובע/g],
  [
    'value_prior',
    new RegExp(
      `${STATE_PRIOR}|${W}${VALUE}[א-ת]*(?:\\s+[^\\s\\d|:]+){0,4}?\\s+(?:ו|ש)?(?:טרם|לפני|ערב|בטרם)\\s+${EVENT}`,
      'g',
    ),
  ],
  [
    'value_new',
    new RegExp(
      `${STATE_NEW}|${W}${VALUE}[א-ת]*(?:\\s+[^\\s\\d|:]+){0,4}?\\s+(?:ו|ש)?(?:לאחר|אחרי|בעקבות)\\s+${EVENT}`,
      'g',
    ),
  ],
  ['levy', new RegExp(`${W}(?:ו|ה|ב|ש|ל)?היטלי?(?![א-ת])(?!\\s+(?:ה)?${OTHER_LEVY})(?:\\s+ה?השבחה)?`, 'g')],
  [
    'betterment',
    new RegExp(
      `${W}(?<!(?:היטלי?|מחצית|שומת|שמאי|שמאית|ערר)\\s+)(?<!(?:%|אחוז|אחוזים)\\s*)(?:[ובלמש]?ה?)השבחה(?![א-ת])`,
      'g',
    ),
  ],
  [
    'price_per_sqm',
    new RegExp(
      `${W}(?:ה)?(?:שווי|ערך|מחיר)\\s+(?:ה)?(?:ל|לכל\\s+|ל-|ל־)?מ${Q}{1,2}ר(?:\\s+(?:מבונה|בנוי|אקו(?:ו)?|קרקע|ברוטו|נטו))?`,
      'g',
    ),
  ],
  ['coefficient', /מקדם\s+(?:ה)?([א-ת]+)/g],
  [
    'compensation',
    new RegExp(`${W}(?<!(?:תביעת|תביעה\\s+ל)\\s*)(?:ו|ה|ב|ל|כ|ש)*פיצוי(?:ים|י|ם)?(?![א-ת])`, 'g'),
  ],
  [
    'injury',
    new RegExp(
      `${W}(?<!(?:לפני|לאחר|אחרי|טרם|בטרם|ערב)\\s+)(?:[ובלמש]?ה?)פגיעה(?![א-ת])|ירידת\\s+(?:ה)?ערך|(?:ה)?ירידה\\s+ב(?:ה)?ערך`,
      'g',
    ),
  ],
  [
    'reasonable_reduction',
    new RegExp(
      `${W}(?:ו|ה|ל|ב)?(?:(?:ה|הו)?פחי?ת[א-ת]*|ניכוי|לנכות|נוכה)(?:\\s+\\S+){0,5}?\\s+(?:ב|ה|מ|ל)*(?:תחום|מתחם)\\s+ה?סביר(?:ות)?|${W}(?:ב|ה|מ|ל)*(?:תחום|מתחם)\\s+ה?סביר(?:ות)?|${W}(?:ה)?הפחתה\\s+(?:\\S+\\s+){0,6}?(?:לפי\\s+)?סעיף\\s+200(?!\\d)`,
      'g',
    ),
  ],
];

/** A coefficient's own word that is not its name: «מקדם של 0.9 בגין סחירות» is named by what follows. */
export const NOT_A_NAME = /^(?:של|בשיעור|בגובה|בסך|בערך|כולל|משוקלל|נוסף|אחד|זה|זהה|כללי)$/;
export const NAME_AFTER = /^\s*(?:\S+\s+){0,1}?(?:בגין|עבור|בעבור|בשל|לצורך|ל-|ל־)\s*(?:ה)?([א-ת]{2,})/;

export const PER_SQM = new RegExp(`^\\s*(?:ל|לכל\\s+|ל-|ל־)\\s*מ${Q}{1,2}ר`);
export const SALE = /נמכר|עסקת|עסקה|עסקאות|עסקאת/;
export const OTHER_APPRAISER =
  /שמאי(?:ת)?\s+(?:ה?וועדה|ה?ועדה|ה?עוררי?ם?|ה?עוררת|ה?משיב\S*|ה?תובע\S*|הצדדים)|לטענת|לשיטת|לדעת|לפי\s+(?:שומת|חוות)|הערי(?:ך|כה)\s+שמאי|(?<![א-ת])(?:ה|ו)?(?:תבעו|תבעה|נתבע|דרשו|דרשה)(?![א-ת])/;
export const COMPARABLES_HEADING = /עסקאות|השוואה|נתוני שוק|סקר שוק/;
export const SENTENCE_END = /[.;!?](?=\s|$)/g;
/** A line that is its own segment: a table row («cell | cell») or a bullet. */
export const ROW = / \| /;
export const BULLET = /^\s*[-•*–·▪]\s/;
/** A table column that holds the deciding figures; a column of another appraiser's figures is skipped. */
export const DECIDING_COLUMN = /הכרעה|מכריע|קביעת(?:י|נו)|שומתי|שומתנו|סופי/;
/** A bare number in a value column of a table row: money when the row names a sum. */
export const BARE_NUMBER = /(?<![\d.,/])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\d,]|\.\d|\s*(?:%|מ["״׳']|דונם|\/))/g;

/** The kinds whose figures are sums of money (a bare number in a table row of these is a sum). */
export const MONEY_KINDS = new Set<FactKind>([
  'value_prior',
  'value_new',
  'betterment',
  'levy',
  'price_per_sqm',
  'injury',
  'compensation',
  'reasonable_reduction',
]);

/** Between two sums of one list: punctuation and «ו», nothing else («1,000 ₪, 2,000 ₪ ו-3,000 ₪»). */
export const LIST_GAP = /^[\s,־–-]*(?:ו|וכן)?[\s־–-]*$/;
