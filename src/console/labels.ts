// Hebrew names for what the console shows: tools the owner decides about, states, case stages. A tool
// without a label here is shown by its name (tools added later still render).
export const toolLabels: Readonly<Record<string, string>> = {
  case_delete: 'מחיקת תיק',
  hai_bind_project: 'קישור פרויקט להתקן',
  hai_recontract: 'שינוי חוזה המשימה',
  hai_close_mission: 'סגירת משימה',
  hai_accept_next_step: 'אישור הצעד הבא',
  hai_revoke_session: 'ביטול הרשאת עבודה',
  approval_review: 'החלטה על בקשת אישור',
  direction_approve: 'אישור הכוונה',
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
  confirmed: 'הקריטריון אושר כמתקיים.',
};

export const labelOf = (labels: Readonly<Record<string, string>>, key: string | null | undefined): string =>
  key === null || key === undefined ? '—' : (labels[key] ?? key);
