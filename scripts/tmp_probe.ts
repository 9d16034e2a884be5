import { extractReferences } from '../src/analysis/references.ts';
import { readOutcome } from '../src/legal/outcomes.ts';

const t = (s: string) => console.log(s, '=>', JSON.stringify(extractReferences([s]).map((r) => r.key)));
t('שומת היטל השבחה נערכה. המועד נקבע לפי סעיף 4(1) לתוספת.');
t('המועד נקבע לפי סעיף 4(1) לתוספת.');
t('לפי התוספת השלישית לחוק, וסעיף 7 לתוספת.');
t('הבקשה אושרה לפי תכנית מתאר ארצית (תמ"א) 38 ותכנית מתאר ארצית מס\' 35.');
console.log(
  readOutcome(
    'העותר טוען. ביום 1.2.03 ניתן פסק דין שבמסגרתו קיבל בית המשפט את התביעה לסילוק יד. העתירה נגד החלטת הרשות.',
  ),
);
console.log(
  readOutcome('המערער טוען. ביום 1.2.03 ניתן פסק דין שבמסגרתו קיבל בית המשפט את התביעה לסילוק יד.'),
);
