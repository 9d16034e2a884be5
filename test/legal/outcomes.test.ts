// The one outcome reader: every standard phrasing of acceptance (full, partial) and rejection for each kind of
// proceeding, the document's own outcome told from the recited outcome of the decision under review,
// negations, conditionals, parties' claims, interlocutory requests and costs; offsets point at the text;
// prose without an outcome verb yields nothing and never throws. Fixtures are invented for these tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/db/schema/vocabulary.ts';
import { findOutcomes, outcomesStated, readOutcome } from '../../src/legal/outcomes.ts';
import { extractMetadata } from '../../src/precedents/metadata.ts';
import { segmentDecision } from '../../src/style/segments.ts';

const own = (text: string) => readOutcome(text).own?.value ?? null;
const prior = (text: string) => readOutcome(text).prior?.value ?? null;

const STATED: [Outcome, string][] = [
  ['full_acceptance', 'לאור כל האמור, הערר מתקבל.'],
  ['full_acceptance', 'סוף דבר: הערר התקבל, והמשיבה תשיב את הסכום ששולם.'],
  ['full_acceptance', 'משכך, אנו מקבלים את הערר ומבטלים את ההחלטה.'],
  ['full_acceptance', 'התוצאה היא שהעתירה מתקבלת והצו יבוטל.'],
  ['full_acceptance', 'אשר על כן הערעור מתקבל, ופסק הדין של הערכאה הקודמת מבוטל.'],
  ['full_acceptance', 'לסיכום, הערר מתקבל במלואו.'],
  ['full_acceptance', 'בנסיבות אלה דין הערר להתקבל.'],
  ['full_acceptance', 'העררים מתקבלים, והשומה תתוקן.'],
  ['full_acceptance', 'סוף דבר, העת"מ מתקבלת.'],
  ['full_acceptance', 'אני מציע לחבריי לקבל את הערעור.'],
  ['full_acceptance', 'אנו מורים על קבלת הערר.'],
  ['partial_acceptance', 'סוף דבר: הערר מתקבל בחלקו, כמפורט בסעיף 12 לעיל.'],
  ['partial_acceptance', 'נוכח האמור, הערר התקבל באופן חלקי בלבד.'],
  ['partial_acceptance', 'התוצאה היא כי הערעור מתקבל חלקית.'],
  ['partial_acceptance', 'לכן דין הערר להתקבל בחלקו.'],
  ['partial_acceptance', 'לפיכך הערר מתקבל בחלקו ונדחה בחלקו, כאמור לעיל.'],
  ['partial_acceptance', 'העתירה מתקבלת בחלקה: ההיתר יוחזר לדיון.'],
  ['partial_acceptance', 'אנו מקבלים את הערר בחלקו, ומחזירים את העניין לוועדה המקומית.'],
  ['partial_acceptance', 'סוף דבר, העררים מתקבלים בחלקם.'],
  ['partial_acceptance', 'בהתאם לכך, הערר מתקבל ברובו.'],
  ['full_acceptance', 'לפיכך הצו על תנאי נעשה מוחלט.'],
  ['rejection', 'אשר על כן הערר נדחה.'],
  ['rejection', 'משלא הוכחה פגיעה, דין הערר להידחות.'],
  ['rejection', 'על יסוד כל אלה אנו דוחים את הערר.'],
  ['rejection', 'לפיכך העתירה נדחית.'],
  ['rejection', 'סוף דבר, הערעור נדחה.'],
  ['rejection', 'התוצאה היא שהבקשה נדחית.'],
  ['rejection', 'בקשת רשות הערעור נדחית.'],
  ['rejection', 'על כן, העררים נדחים.'],
  ['rejection', 'דין העתירות להידחות.'],
  ['rejection', 'הערעור שבפנינו נדחה על הסף.'],
  ['rejection', 'הערר נדחה ללא צו להוצאות.'],
  ['rejection', 'העתירה נדחית. העותרים ישלמו למשיבה הוצאות בסך 5,000 ש"ח.'],
  ['rejection', 'לא מצאנו מקום לקבל את הערר.'],
  ['rejection', 'אין מקום לקבל את העתירה, ולכן היא נדחית.'],
  ['rejection', 'איננו מקבלים את הערר.'],
  ['rejection', 'הערר לא התקבל.'],
];

describe('outcome reader: the own outcome in every standard phrasing', () => {
  it.each(STATED)('%s: %s', (value, text) => {
    const reading = readOutcome(text);
    expect(reading.own?.value).toBe(value);
    expect(reading.prior).toBeNull();
    const span = reading.own?.span;
    expect(span !== undefined && text.slice(span.start, span.end)).toBe(span?.text);
  });
});

describe('outcome reader: own and prior', () => {
  it('a judgment recites the committee’s rejection and decides its own appeal', () => {
    const text = [
      'לפנינו ערעור מנהלי על החלטת ועדת הערר המחוזית, אשר דחתה את הערר שהגיש המערער על סירוב הוועדה המקומית.',
      'המערער טוען כי ההחלטה ניתנה בחוסר סמכות.',
      'סוף דבר',
      'הערעור מתקבל, וההחלטה מבוטלת.',
    ].join('\n');
    const r = readOutcome(text);
    expect(r.own?.value).toBe('full_acceptance');
    expect(r.prior?.value).toBe('rejection');
    expect(r.prior?.span.text).toBe('דחתה את הערר');
    expect(text.slice(r.own?.span.start, r.own?.span.end)).toBe('הערעור מתקבל');
  });

  it.each<[Outcome, string]>([
    ['rejection', 'ועדת הערר דחתה את הערר שהגישו המערערים, ועל כך הערעור שלפנינו.'],
    ['full_acceptance', 'בית המשפט קמא קיבל את העתירה והורה על ביטול ההיתר; מכאן הערעור.'],
    ['rejection', 'זהו ערעור על החלטת ועדת הערר אשר דחתה את עררם של המערערים.'],
    ['rejection', 'עתירה זו מופנית נגד החלטה מיום 3.4.2019, בגדרה נדחתה תביעת הפיצויים של העותרת.'],
    ['full_acceptance', 'העותרים תוקפים את החלטת ועדת הערר, לפיה התקבל ערר מבקשת ההיתר.'],
    ['partial_acceptance', 'המערער משיג על החלטת ועדת הערר, לפיה נתקבל באופן חלקי הערר שהגיש.'],
    ['rejection', 'הערעור הוגש על החלטת ועדת הערר שסילקה על הסף ערר שהוגש לה באיחור.'],
    ['rejection', 'ביום 1.5.2020 דחתה ועדת הערר את עררו של העותר.'],
    ['rejection', 'העותרים ביקשו רשות לערור על ההחלטה ובקשתם נדחתה.'],
    ['rejection', 'בפסק הדין האמור נדחתה תובענתם של המערערים.'],
    ['rejection', 'המערער מלין על החלטת בית משפט השלום לפיה דחה בית המשפט את בקשת המערער לביטול צו ההריסה.'],
    ['rejection', 'ועדת הערר קבעה כך: "לא מצאנו ממש בטענות, ולכן הערר נדחה". על כך הוגשה העתירה.'],
  ])('prior %s: %s', (value, text) => {
    expect(prior(text)).toBe(value);
    expect(own(text)).toBeNull();
  });

  it('a digest that opens with the committee’s decision reports it as its own outcome', () => {
    const text =
      'ועדת הערר קיבלה ערר על החלטת הוועדה המקומית להתיר תוספת קומה.\nנקבע כי הבנייה חרגה מן המותר.';
    expect(readOutcome(text).own?.value).toBe('full_acceptance');
    expect(readOutcome(text).prior).toBeNull();
  });

  it('a committee decision’s own heading does not make the local committee’s refusal its outcome', () => {
    const text = 'ועדת הערר לתכנון ובנייה מחוז דרום\nערר 3/25\nהחלטה\nהוועדה המקומית דחתה את הבקשה להיתר.';
    expect(readOutcome(text)).toMatchObject({ own: null, prior: { value: 'rejection' } });
  });

  it('the closing part wins over details and over an earlier statement in the reasoning', () => {
    const text = [
      'בהחלטה הקודמת בעניין זה הערר נדחה.',
      'סוף דבר: הערר מתקבל בחלקו. ככל שהוא נוגע לחניה, הערר נדחה.',
    ].join('\n');
    expect(own(text)).toBe('partial_acceptance');
    expect(prior(text)).toBe('rejection');
  });
});

describe('outcome reader: what is no outcome', () => {
  it.each([
    'אילו היה מתקבל הערר, היה על הוועדה לשוב ולדון בבקשה.',
    'אם הערר מתקבל, ההיתר יינתן.',
    'השאלה היא האם יש לקבל את הערר בשל הפגם.',
    'המשיבה טוענת כי דין הערר להידחות על הסף.',
    'לטענת העוררים יש לקבל את הערר במלואו.',
    'העוררים מבקשים לקבל את הערר ולבטל את ההחלטה.',
    'אין לדחות את הערר על הסף רק בשל האיחור.',
    'את טענה זו אנו דוחים.',
    'הבקשה לעיכוב ביצוע נדחית.',
    'העירייה ביקשה לסלק את הערר בשל איחור; ועדת הערר דחתה את הבקשה ונימקה זאת.',
    'הערר נמחק לבקשת העוררים.',
    'ההתנגדויות נדחו, והתכנית אושרה.',
    'קבלת הערר תביא לפגיעה בתכנון הכולל.',
    'השמאית עצמה דנה בטענה ודחתה אותה.',
    'העותרים מבקשים כי הצו על תנאי ייעשה מוחלט.',
    'כך נפסק בעע"מ 1234/19 לוי נ׳ הוועדה המקומית, שם נדחה הערעור.',
    'בערר 55/20 הערר נדחה משום שלא הוגשה שומה נגדית.',
  ])('%s', (text) => {
    expect(readOutcome(text)).toEqual({ own: null, prior: null });
  });
});

describe('outcomesStated (the validator’s check of an outcome block)', () => {
  it('one outcome, several, or none', () => {
    expect(outcomesStated('סוף דבר: הערר מתקבל בחלקו ונדחה בחלקו.')).toEqual(['partial_acceptance']);
    expect(outcomesStated('הערר נדחה. המשיבה תישא בהוצאות.')).toEqual(['rejection']);
    expect(outcomesStated('הערר נדחה. לחלופין, הערר מתקבל.')).toEqual(['rejection', 'full_acceptance']);
    expect(outcomesStated('ההחלטה תישלח לצדדים.')).toEqual([]);
  });
});

// Words of planning prose, the proceedings' nouns included, and no outcome verb.
const WORDS = [
  'הערר',
  'העתירה',
  'הערעור',
  'הבקשה',
  'ועדת',
  'הוועדה',
  'המקומית',
  'תכנית',
  'היתר',
  'בנייה',
  'חלקה',
  'גוש',
  'השמאי',
  'המכריע',
  'קבע',
  'כי',
  'את',
  'על',
  'של',
  'לא',
  'אין',
  'אם',
  'היה',
  'אנו',
  'סוף',
  'דבר',
  'התוצאה',
  'דין',
  'העוררים',
  'המשיבה',
  'טוענת',
  'בחלקו',
  'במלואו',
  'חלקית',
  'הוצאות',
  'לפיה',
  'אשר',
  'ביום',
  'עת"מ',
];
const PUNCT = [' ', ' ', ' ', ', ', '. ', ': ', '\n', ' "', '" ', ' (', ') ', ' «', '» '];

describe('outcome reader: prose without outcome verbs', () => {
  it('yields nothing and never throws', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...PUNCT)), { maxLength: 60 }),
        (parts) => {
          const text = parts.map(([w, p]) => w + p).join('');
          expect(findOutcomes(text)).toEqual([]);
          expect(readOutcome(text)).toEqual({ own: null, prior: null });
        },
      ),
      { numRuns: 300, seed: 20_261_202 },
    );
  });

  it('garbage never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const r = readOutcome(text);
        for (const m of findOutcomes(text)) expect(text.slice(m.span.start, m.span.end)).toBe(m.span.text);
        expect(r).toBeDefined();
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('outcome reader: forms of recited decisions', () => {
  it.each<[Outcome, string]>([
    ['rejection', 'לאחר שהערר נדחה, פנו העוררים לבית המשפט המחוזי.'],
    ['full_acceptance', 'ביום 2.2.2021 הערר התקבל, והמשיבה פנתה לערכאה הבאה.'],
    ['rejection', 'בהחלטה מיום 9.9.2019 הערר שהוגש על ידי העוררים נדחה.'],
    ['rejection', 'על החלטת הוועדה הוגשה עתירה, אשר נדחתה.'],
  ])('%s: %s', (value, text) => {
    expect(readOutcome(text)).toMatchObject({ own: null, prior: { value } });
  });

  it('the decision under review is the one on an appeal, not the permit refused before it', () => {
    const text = 'הוועדה המקומית דחתה את הבקשה להיתר. ועדת הערר קיבלה את הערר, ומכאן העתירה שלפנינו.';
    expect(prior(text)).toBe('full_acceptance');
  });

  it('an operative present form stays the decision’s own, whatever date the sentence gives', () => {
    expect(own('בהחלטה זו, הניתנת ביום 1.3.2024, אנו דוחים את הערר.')).toBe('rejection');
    expect(own('סוף דבר: העתירה התקבלה.')).toBe('full_acceptance');
  });

  it('a party’s claim that the appeal is accepted is no outcome', () => {
    expect(readOutcome('העורר, באמצעות בא כוחו, טען כי הערר מתקבל מאליו.')).toEqual({
      own: null,
      prior: null,
    });
  });
});

describe('the readers that use it', () => {
  it('the metadata extractor takes the own outcome, at its page and offsets, not the recited one', () => {
    const pages = [
      'פסק דין\nלפנינו ערעור על החלטת ועדת הערר אשר דחתה את הערר.\nהמערערים טוענים כי נפל פגם.',
      'דיון\nהפגם יורד לשורש העניין.\nסוף דבר: הערעור מתקבל בחלקו.',
    ];
    const outcome = extractMetadata(pages).outcome;
    expect(outcome).toMatchObject({
      value: 'partial_acceptance',
      at: { page: 2, text: 'הערעור מתקבל בחלקו' },
    });
    expect(pages[1]?.slice(outcome?.at.start, outcome?.at.end)).toBe('הערעור מתקבל בחלקו');
  });

  it('the style segmenter reads the outcome part, not the background', () => {
    const page = [
      'ערר 7/25',
      'החלטה',
      '1. הוועדה המקומית דחתה את הבקשה להיתר.',
      'סוף דבר',
      '2. דין הערר להתקבל.',
    ].join('\n');
    expect(segmentDecision([page]).outcome).toBe('full_acceptance');
  });
});
