// Shared by the halacha tools' tests: a ruling written for them (holdings in the court's voice, and the same
// cues in the parties' claims, which must never become holdings), seeded as a ready library document, and the
// holdings extracted from it through the tool.
import { expect } from 'vitest';
import type { DocumentCorpus } from '../../../src/db/schema/documents.ts';
import type { Db } from '../../../src/db/types.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

/** The ruling's text; {tag} makes each copy a document of its own. */
export const RULING = `בבית המשפט העליון בשבתו כבית משפט לערעורים בעניינים מינהליים
עע"מ 9001/19 כהן נ' הוועדה המקומית לתכנון ובנייה רעננה {tag}

פסק דין

1. לפנינו ערעור על פסק דינו של בית המשפט לעניינים מינהליים, שדחה את עתירת המערערים נגד היתר בנייה.

טענות הצדדים

2. לטענת המערערים, הלכה היא כי הקלה אינה יכולה לשמש לשינוי ייעוד, ולכן ההיתר בטל.
3. המשיבה טוענת כי נקבע כי שיקול הדעת של הוועדה המקומית במתן הקלות הוא רחב.

דיון והכרעה

4. הלכה היא כי הקלה אינה כלי לשינוי ייעוד המקרקעין. שינוי כזה טעון תכנית.
5. המערערים טוענים כי הוועדה שגתה. אין בידינו לקבל טענה זו. המבחן הוא אם הסטייה פוגעת במטרות התכנית ובאופייה של הסביבה.
\f6. לטענת המערערים, הכלל הוא שאין להתערב בשיקול דעת התכנון.
7. לא אחת נפסק כי ועדת ערר רשאית לשקול את ההחלטה מחדש ולהפעיל שיקול דעת תכנוני עצמאי.
8. אשר על כן הערעור נדחה. המערערים יישאו בהוצאות המשיבה.
`;

/** The holdings in it, as the opening words of each (page, text start). */
export const RULING_HOLDINGS = [
  { page: 1, opens: 'הלכה היא כי הקלה אינה כלי', cue: 'הלכה היא' },
  { page: 1, opens: 'אין בידינו לקבל טענה זו. המבחן הוא', cue: 'המבחן הוא' },
  { page: 2, opens: 'לא אחת נפסק כי ועדת ערר', cue: 'לא אחת נפסק' },
] as const;

/** A ready library (or internal) document holding the ruling. */
export async function seedRuling(db: Db, corpus: DocumentCorpus = 'library', text = RULING): Promise<string> {
  const row = await seedDocument(db, {
    corpus,
    caseId: null,
    bytes: textBytes(text.replace('{tag}', crypto.randomUUID())),
    title: 'כהן נ׳ הוועדה המקומית רעננה',
    number: 'עע"מ 9001/19',
  });
  expect(row.status).toBe('ready');
  return row.id;
}

/** Extracts a document's holdings as the researcher, waiting for them. */
export async function extractHoldings(s: TestServer, documentId: string): Promise<void> {
  const data = expectOk<{ done: boolean }>(
    await s.call('researcher', 'halacha_extract', { document_id: documentId, wait_ms: 10_000 }),
  );
  expect(data.done).toBe(true);
}
