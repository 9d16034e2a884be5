// The metadata fields of internal_decision_add and library_add (a decision or a ruling as cited).
import * as z from 'zod';

const text = (max: number, what: string) => z.string().trim().min(1).max(max).optional().describe(what);

export const decisionFields = {
  number: text(100, 'The number as cited, e.g. ערר 6091/09, ע"א 1108/97'),
  decision_date: z.iso.date().optional().describe('The decision date'),
  parties: text(500, 'The parties as cited, e.g. כהן נ׳ הוועדה המקומית'),
};

export const courtField = text(200, 'The court, e.g. בית המשפט העליון');
export const committeeField = text(200, 'The committee, e.g. ועדת הערר מחוז מרכז');
