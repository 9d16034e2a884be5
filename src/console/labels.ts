// Hebrew names for what the console shows: tools the owner decides about, states, case stages. A tool
// without a label here is shown by its name (tools added later still render).
import { blockHeadings } from '../drafting/blocks.ts';
export const toolLabels: Readonly<Record<string, string>> = {
  case_delete: 'מחיקת תיק',
  hai_bind_project: 'קישור פרויקט להתקן',
  hai_recontract: 'שינוי חוזה המשימה',
  hai_close_mission: 'סגירת משימה',
  hai_accept_next_step: 'אישור הצעד הבא',
  hai_revoke_session: 'ביטול הרשאת עבודה',
  approval_review: 'החלטה על בקשת אישור',
  direction_approve: 'אישור הכוונה',
  direction_review: 'בחינת הכוונה',
  outcome_set: 'קביעת התוצאה',
  halacha_review: 'בחינת הלכה',
  final_version_ingest: 'קליטת הנוסח הסופי',
};

export const toolLabel = (tool: string): string => toolLabels[tool] ?? tool;

export const approvalStateLabels: Readonly<Record<string, string>> = {
  pending: 'ממתינה להחלטה',
  approved: 'אושרה',
  rejected: 'נדחתה',
  used: 'אושרה ונוצלה',
};

export const caseStatusLabels: Readonly<Record<string, string>> = {
  open: 'פתוח',
  drafting: 'בכתיבה',
  decided: 'הוחלט',
  archived: 'בארכיון',
};

export const missionStateLabels: Readonly<Record<string, string>> = {
  active: 'פעילה',
  completed: 'הושלמה',
  abandoned: 'ננטשה',
};

export const documentStatusLabels: Readonly<Record<string, string>> = {
  pending: 'ממתין לחילוץ',
  extracting: 'בחילוץ',
  ready: 'מוכן',
  failed: 'נכשל',
};

/** Fixed texts for the notice after an action (a code in the redirect, never text from the URL). */
export const doneNotices: Readonly<Record<string, string>> = {
  approved: 'הבקשה אושרה. הסוכן יכול לחזור על הקריאה פעם אחת.',
  rejected: 'הבקשה נדחתה.',
  revoked: 'הרשאת העבודה בוטלה.',
  accepted: 'הצעד הבא אושר.',
  deleted: 'התיק נמחק.',
  direction: 'ההכוונה אושרה.',
  direction_rejected: 'ההכוונה נדחתה.',
  holding_approved: 'ההלכה אושרה.',
  holding_rejected: 'ההלכה נדחתה.',
  feedback: 'ההערה נרשמה.',
  final: 'הנוסח הסופי נקלט והתיק סומן כהוחלט.',
  confirmed: 'הקריטריון אושר כמתקיים.',
};

export const labelOf = (labels: Readonly<Record<string, string>>, key: string | null | undefined): string =>
  key === null || key === undefined ? '—' : (labels[key] ?? key);

/** The workflow's stages (src/review/workflow.ts), as the chair reads them. */
export const stageLabels: Readonly<Record<string, string>> = {
  intake: 'קליטה',
  documents: 'קריאת מסמכים',
  analysis: 'ניתוח',
  direction: 'הכוונה',
  drafting: 'כתיבה',
  validation: 'בדיקה',
  export: 'הפקה לוורד',
  final: 'נוסח סופי',
};

export const directionStatusLabels: Readonly<Record<string, string>> = {
  proposed: 'מוצעת',
  approved: 'מאושרת',
  superseded: 'הוחלפה',
  rejected: 'נדחתה',
};

export const holdingStatusLabels: Readonly<Record<string, string>> = {
  pending: 'ממתינה לבחינה',
  approved: 'אושרה',
  rejected: 'נדחתה',
};

export const severityLabels: Readonly<Record<string, string>> = {
  error: 'שגיאה',
  warning: 'אזהרה',
  note: 'הערת סגנון',
};

export const feedbackKindLabels: Readonly<Record<string, string>> = {
  style: 'סגנון',
  substance: 'מהות',
  citation: 'אסמכתאות',
  structure: 'מבנה',
};

/** The kinds of blocks by what the decision calls them (the header and signature have no heading of their own). */
export const blockKindLabels: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(blockHeadings).filter(([, heading]) => heading !== null)),
  header: 'כותרת ההחלטה',
  signature: 'חתימה',
};

export const documentRoleLabels: Readonly<Record<string, string>> = {
  appeal: 'כתב ערר',
  response: 'כתב תשובה',
  appraisal: 'שומה',
  deciding_appraisal: 'שומת שמאי מכריע',
  advisory_appraisal: 'שומת שמאי מייעץ',
  protocol: 'פרוטוקול',
  plan: 'תכנית',
  decision: 'החלטה',
  summation: 'סיכומים',
  arguments: 'עיקרי טיעון',
  interim_decision: 'החלטת ביניים',
  request: 'בקשה',
  other: 'אחר',
};

export const corpusLabels: Readonly<Record<string, string>> = {
  case: 'מסמך בתיק',
  style: 'מאגר הסגנון',
  internal: 'החלטה של הוועדה',
  library: 'פסיקה',
};

/** What a validation finding is about, by its code; an unknown code shows the validator's own message. */
export const findingLabels: Readonly<Record<string, string>> = {
  required_block_missing: 'חסר חלק חובה בהחלטה',
  required_block_empty: 'חלק חובה ריק',
  required_block_placeholder: 'חלק חובה שנותר בו ממלא מקום',
  figure_implausible: 'נתון מספרי שאינו סביר',
  claim_unanswered: 'טענה שלא נענתה בדיון',
  outcome_not_set: 'תוצאת התיק טרם נקבעה',
  direction_mismatch: 'ההכוונה המאושרת אינה מובילה לתוצאה',
  outcome_not_stated: 'התוצאה אינה מנוסחת בסוף דבר',
  outcome_ambiguous: 'בסוף דבר נזכרת יותר מתוצאה אחת',
  outcome_mismatch: 'התוצאה בסוף דבר שונה מתוצאת התיק',
  header_case_number: 'מספר התיק בכותרת אינו תואם',
  header_appellant: 'שם העוררים בכותרת אינו תואם',
  header_respondent: 'שם המשיבים בכותרת אינו תואם',
  header_committee: 'שם הוועדה בכותרת אינו תואם',
  fact_mismatch: 'נתון שונה מקביעת השמאי המכריע',
  latin_quote_mark: 'מירכאות לועזיות במקום גרשיים',
  citation_not_found: 'אסמכתה שלא נמצאה במאגר',
  citation_wrong_name: 'שמות הצדדים באסמכתה אינם תואמים',
  citation_wrong_pinpoint: 'הפניה לפסקה או לעמוד שאינם במקור',
  citation_could_not_check: 'אסמכתה שלא ניתן היה לבדוק',
  quote_altered: 'ציטוט ששונה מהמקור',
  quote_not_found: 'ציטוט שלא נמצא במקור',
  quote_could_not_check: 'ציטוט שלא ניתן היה לבדוק',
  citation_negative_treatment: 'פסק דין שנהפך או סויג מאוחר יותר',
};

/** The agents by their role in the chambers; the owner principal by name. */
export const agentLabels: Readonly<Record<string, string>> = {
  ceo: 'מנהל/ת הלשכה (סוכן)',
  analyst: 'האנליסט/ית (סוכן)',
  researcher: 'החוקר/ת (סוכן)',
  writer: 'הכותב/ת (סוכן)',
  qa: 'הבודק/ת (סוכן)',
};

export const agentLabel = (agent: string): string =>
  agent.startsWith('owner:') ? `${agent.slice('owner:'.length)} (יו״ר)` : (agentLabels[agent] ?? agent);

/** A refusal the chair may meet in her own actions, in her words (others show the tool's message). */
export const refusals: Readonly<Record<string, string>> = {
  not_found: 'הפריט לא נמצא (אולי נמחק).',
  invalid_state: 'לא ניתן לבצע את הפעולה במצב הנוכחי.',
  payload_too_large: 'הקובץ גדול מדי.',
  idempotency_key_reuse: 'הערה זו כבר נרשמה במילים אחרות.',
};
