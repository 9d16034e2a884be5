// The decision under review as appeals and petitions recite it: another body's decision with an infinitive
// («החלטת ועדת הערר … לדחות את הערר»), a committee's ערר named in an appeal or a petition, a decision recited
// by its maker or as what was appealed, a part written between the verb and its object, and a court's
// judgment on a claim recited in a petition. Fixtures are sentences written for these tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/db/schema/vocabulary.ts';
import { readOutcome } from '../../src/legal/outcomes.ts';

describe('the decision under review', () => {
  it.each<[Outcome, string]>([
    ['rejection', 'בפניי ערעור על החלטת ועדת הערר המחוזית לפיצויים והיטל השבחה, לדחות את הערר שהגיש המערער.'],
    ['full_acceptance', 'העתירה מופנית נגד החלטת ועדת הערר מיום 4.4.2016 לקבל את ערר השכנים על ההיתר.'],
    ['rejection', 'בהחלטתה מיום 2.2.2014, החליטה הוועדה לדחות את הערר.'],
    ['rejection', 'המערערים פנו לוועדת הערר בערר על השומה, והערר נדחה.'],
    ['full_acceptance', 'השכנה השיגה על ההיתר בפני ועדת הערר, והערר התקבל; מכאן עתירת העותרת.'],
    ['rejection', 'הערר נדחה על ידי ועדת הערר ביום 8.8.2018, ומכאן הערעור.'],
    ['rejection', 'התובענה נדחתה בידי בית משפט השלום.'],
    ['full_acceptance', 'ועדת הערר קיבלה את הערר, ועל כך העתירה שבפנינו.'],
  ])('prior %s: %s', (value, text) => {
    expect(readOutcome(text)).toMatchObject({ own: null, prior: { value } });
  });

  it('reads a part written between the verb and its object', () => {
    const text = 'הוועדה המקומית הגישה ערעור. ועדת הערר קיבלה חלקית את הערר שהוגש לה, ומכאן הערעור.';
    expect(readOutcome(text).prior?.value).toBe('partial_acceptance');
  });

  it('leaves the document’s own decision its own: the appeal decided, a ערר decided by the committee', () => {
    expect(readOutcome('המערערים טענו כי השומה שגויה. סוף דבר: הערעור נדחה.').own?.value).toBe('rejection');
    // Before an appeals committee the ערר is the document's own, whatever appellants it names.
    const committee = 'העוררים, שהם המערערים בהליך אחר, טענו כי ההיתר ניתן שלא כדין. הערר מתקבל.';
    expect(readOutcome(committee).own?.value).toBe('full_acceptance');
    // An infinitive after the document's own decision word stays its own.
    expect(readOutcome('לאור כל האמור, החלטנו לקבל את הערר.').own?.value).toBe('full_acceptance');
  });

  it('is not a court’s judgment on a claim recited in a petition', () => {
    const text =
      'העותר מחזיק במקרקעין. ביום 1.2.2003 ניתן פסק דין שבמסגרתו קיבל בית המשפט את התביעה לסילוק יד. ' +
      'העתירה מופנית נגד החלטת הרשות להקצות את השטח לאחר.';
    expect(readOutcome(text).prior).toBeNull();
    // In an appeal from that court, the same judgment is the one under review.
    const appeal = text.replace('העותר', 'המערער').replace('העתירה מופנית', 'הערעור מופנה');
    expect(readOutcome(appeal).prior?.value).toBe('full_acceptance');
    // A committee's decision on a claim stays under review in a petition.
    const committee = 'העתירה מופנית נגד החלטת הוועדה, בגדרה נדחתה תביעת הפיצויים של העותרת.';
    expect(readOutcome(committee).prior?.value).toBe('rejection');
  });

  it('reads one value for every body and date a recited decision is written with, and never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ועדת הערר', 'ועדת הערר המחוזית', 'ועדת הערר לפיצויים והיטל השבחה'),
        fc.constantFrom('', ' מיום 3.3.2013', ' (בערר 120/12)'),
        fc.constantFrom<[string, Outcome]>(
          ['לדחות', 'rejection'],
          ['לקבל', 'full_acceptance'],
          ['לקבל חלקית', 'partial_acceptance'],
        ),
        (body, date, [verb, value]) => {
          const text = `לפנינו ערעור על החלטת ${body}${date} ${verb} את הערר שהגיש המערער.`;
          expect(readOutcome(text).prior?.value, text).toBe(value);
          expect(readOutcome(text).own, text).toBeNull();
        },
      ),
    );
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => void readOutcome(text)));
  });
});
