// How a decision reports the parties' claims in its own voice, form by form (claims_cues.ts): two sides in
// one sentence, a second claim after a comma, pronouns by gender and number, the other side answering, a
// far verb, a left-out verb, a request with its reason, history inside a summary, a claim answered in its own
// sentence, an opening line, and subheadings that name a side. Texts are written for these tests.
import { describe, expect, it } from 'vitest';
import { extractClaims } from '../../src/analysis/claims.ts';

const said = (text: string) => extractClaims([text], 'decision').map((c) => `${c.party}: ${c.text}`);

describe('claims a decision reports', () => {
  it('splits one sentence that gives both sides («מחד … ומאידך …») into a claim of each', () => {
    expect(
      said(
        'המחלוקת נוגעת לגובה הגדר, כך שמחד טוענת העוררת, כי הגדר תחסום את האור, ומאידך טוען המשיב 2 כי הגדר נדרשת לביטחון ביתו.',
      ),
    ).toEqual([
      'appellant: המחלוקת נוגעת לגובה הגדר, כך שמחד טוענת העוררת, כי הגדר תחסום את האור',
      'third_party: ומאידך טוען המשיב 2 כי הגדר נדרשת לביטחון ביתו.',
    ]);
  });

  it('starts a second claim of the same side at a repeated verb after a comma, not at a subordinate one', () => {
    expect(
      said('העורר טען כי יש לצרף את כל הבעלים להליך, ובנוסף לכך, טען כי העבודות יפגעו ביסודות ביתו.'),
    ).toEqual([
      'appellant: העורר טען כי יש לצרף את כל הבעלים להליך, ובנוסף לכך',
      'appellant: טען כי העבודות יפגעו ביסודות ביתו.',
    ]);
    // «…, כאשר העוררת טוענת כי …» says how, it does not start another claim.
    expect(
      said('בערר זה מלינה העוררת על שיעור ההפחתה, כאשר העוררת טוענת כי הוא נמוך מן המקובל.'),
    ).toHaveLength(1);
    // A pronoun inside the clause («…, ולכן יש להם, לשיטתם, זכות …») is not a new claim either.
    expect(said('לטענת העוררים ההיתר חורג מהתכנית, ולכן עומדת להם, לשיטתם זכות לערור עליו.')).toHaveLength(1);
  });

  it('finds whom «לטענתו», «לטענתה», «היא טוענת» refer to by gender and number', () => {
    expect(said('העורר קיבל מהמשיבה הנחה חלקית בלבד. לטענתו, מגיעה לו הנחה מלאה.')).toEqual([
      'appellant: לטענתו, מגיעה לו הנחה מלאה.',
    ]);
    expect(said('העוררים פנו אל המשיבה בבקשה. לטענתה, הבקשה לא הגיעה אליה מעולם.')).toEqual([
      'respondent: לטענתה, הבקשה לא הגיעה אליה מעולם.',
    ]);
    expect(said('המשיבה הגישה תשובה ארוכה, ובה היא טוענת כי העוררים אינם בעלי זכות בנכס.')).toEqual([
      'respondent: המשיבה הגישה תשובה ארוכה, ובה היא טוענת כי העוררים אינם בעלי זכות בנכס.',
    ]);
  });

  it('reads «לטענתה» when it opens the sentence or a clause, not as an aside at the end of narration', () => {
    expect(
      said('המשיבה העניקה הנחה חלקית בלבד, כי הבעלות הייתה משותפת "בחלקים" לטענתה, ולכן אין הנחה מלאה.'),
    ).toEqual([]);
    expect(said('העורר הגיש את הערר באיחור, משום שלטענתו, ההחלטה לא נמסרה לו.')).toHaveLength(1);
  });

  it('reads a side named otherwise («פלונית טוענת מנגד») as the other side of the claim before', () => {
    expect(
      said('לטענת הוועדה המקומית ההחלטה היא החלטת ביניים; רבקה טוענת מנגד, כי ההחלטה סופית ויש עליה ערעור.'),
    ).toEqual([
      'respondent: לטענת הוועדה המקומית ההחלטה היא החלטת ביניים;',
      'appellant: רבקה טוענת מנגד, כי ההחלטה סופית ויש עליה ערעור.',
    ]);
  });

  it('reads the verb far from the side that opens the sentence, if it agrees with it and nothing says «כי» between', () => {
    expect(said('העוררת, המתגוררת בבניין מאז הקמתו והחוששת לשקט, טוענת לפגם בפרסום הבקשה.')).toHaveLength(1);
    expect(said('המשיבה דוחה את טענות העוררים וטוענת כי השומה נערכה כדין.')).toEqual([
      'respondent: המשיבה דוחה את טענות העוררים וטוענת כי השומה נערכה כדין.',
    ]);
    expect(said('הוועדה התרשמה בסיור, כי הרעש שעליו טוענים השכנים אינו חריג.')).toEqual([]);
  });

  it('reads a left-out verb («העוררים כי …»), «בנימוק ש…», «נטען על ידי», and a cue cut off with nothing after it', () => {
    expect(said('העוררים כי הבנייה המבוקשת תחרוג מקו הבניין הצדדי.')).toHaveLength(1);
    expect(said('העירייה הגישה בקשה למחוק את הערר, בנימוק שהוגש אחרי המועד.')).toEqual([
      'respondent: העירייה הגישה בקשה למחוק את הערר, בנימוק שהוגש אחרי המועד.',
    ]);
    expect(said('עוד נטען על ידי העוררים כי השמאי לא ביקר בנכס.')).toEqual([
      'appellant: עוד נטען על ידי העוררים כי השמאי לא ביקר בנכס.',
    ]);
    expect(said('המשיבים, שגם הם זקוקים לדירה נגישה, טוענים לה')).toEqual([]);
  });

  it('keeps the claim before the committee answers it in the same sentence', () => {
    expect(said('ב"כ המשיבה טען כי ההודעה נמסרה, אולם טענה זו לא הוכחה.')).toEqual([
      'respondent: ב"כ המשיבה טען כי ההודעה נמסרה',
    ]);
    expect(said('לאחר שעיינו בטענות העוררים, הערר נדחה.')).toEqual([]);
  });

  it('leaves out the history a summary run into the text tells, but not what argues in it', () => {
    expect(
      said(
        'טענות המערערת המערערת קנתה את הדירה בשנת 2001. ביום 2/4/05 נשלחה אליה דרישה לתשלום. ההשגה נמשכה שנים. המערערת שילמה ביום 3/5/05 את הדרישה, אף שחשבה שהיא שגויה. השומה שנקבעה אינה משקפת את שווי הדירה.',
      ),
    ).toEqual([
      'appellant: המערערת שילמה ביום 3/5/05 את הדרישה, אף שחשבה שהיא שגויה.',
      'appellant: השומה שנקבעה אינה משקפת את שווי הדירה.',
    ]);
  });

  it('takes no claim from an opening line, and ends a summary run into the text at «דיון והכרעה»', () => {
    expect(said('העוררים טוענים כי: ההיתר פגום; החניה לא תספיק.')).toEqual([
      'appellant: ההיתר פגום;',
      'appellant: החניה לא תספיק.',
    ]);
    expect(said('להלן תמצית טענות העוררים. השמאי התעלם מעסקאות. דיון והכרעה השמאי בחן עסקאות רבות.')).toEqual(
      ['appellant: השמאי התעלם מעסקאות.'],
    );
  });

  it('gives each side its subheading under «טענות הצדדים»', () => {
    expect(
      said(
        'טענות הצדדים\nהעוררים\nהמקדם שנקבע נמוך מדי.\nהמשיבה\nהמקדם נקבע לפי עסקאות.\nדיון והכרעה\nהשמאי בחן עסקאות.',
      ),
    ).toEqual(['appellant: המקדם שנקבע נמוך מדי.', 'respondent: המקדם נקבע לפי עסקאות.']);
  });

  it('does not carry a claim past a semicolon into a clause that turns to another subject («ובאשר ל…»)', () => {
    expect(
      said('המשיבה טוענת כי הערר הוגש באיחור; ובאשר לבקשה לעיכוב ביצוע, עניינה שמירת המצב הקיים עד להכרעה.'),
    ).toEqual(['respondent: המשיבה טוענת כי הערר הוגש באיחור;']);
    // A clause after the semicolon that names a claim of its own is still read.
    expect(
      said('המשיבה טוענת כי הערר הוגש באיחור; ובאשר לגופו של עניין, לטענתה השומה נערכה כדין.'),
    ).toHaveLength(2);
  });

  it('ends a claim where the account of what the filing does begins («ובמסגרת זו מתייחסים …»)', () => {
    expect(
      said('העוררת טוענת כי הבקשה להיתר חורגת מקווי הבניין ובמסגרת זו מתייחסת למכתב מהנדס העיר.'),
    ).toEqual(['appellant: העוררת טוענת כי הבקשה להיתר חורגת מקווי הבניין']);
  });

  it('reads the same claim reported again as one claim, but keeps a later one that adds to it', () => {
    expect(
      said(
        'העוררים טוענים כי המקרקעין הופקעו לפני המועד הקובע ולכן אינם חייבים בהיטל. העוררים מוסיפים ומנמקים מדוע הם אינם חייבים בהיטל.',
      ),
    ).toEqual(['appellant: העוררים טוענים כי המקרקעין הופקעו לפני המועד הקובע ולכן אינם חייבים בהיטל.']);
    expect(
      said(
        'העוררים טוענים כי אינם חייבים בהיטל. העוררים מנמקים מדוע בנסיבות ההפקעה המוקדמת אינם חייבים בהיטל.',
      ),
    ).toHaveLength(2);
  });

  it('reads each predicate of one subject after one «כי» as a claim of its own, not a noun after a comma', () => {
    expect(
      said(
        'מנגד טוען המשיב 2 כי התוספת תיטיב את תנאי המגורים של משפחתו, תשתלב בבינוי הקיים ולא תפגע בפרטיות השכנים.',
      ),
    ).toEqual([
      'third_party: מנגד טוען המשיב 2 כי התוספת תיטיב את תנאי המגורים של משפחתו',
      'third_party: תשתלב בבינוי הקיים ולא תפגע בפרטיות השכנים.',
    ]);
    // A noun after the comma («תוך», «תכנית») goes on with the same predicate.
    expect(said('העוררת טוענת כי הבנייה תחסום את הנוף, תוך פגיעה ממשית בערך דירתה.')).toHaveLength(1);
  });
});
