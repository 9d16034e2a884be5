// Cases: the list with stage, what waits for the chair and outcome, and a case page built from sections. Each section renders what
// the case has and says nothing when there is nothing to show (or the owner cannot call the tool it needs).
import { html } from 'hono/html';
import type { Deadline } from '../../cases/schedule.ts';
import { outcomeLabels, practiceAreaLabels } from '../../db/schema/vocabulary.ts';
import { agentLabel, caseStatusLabels, documentStatusLabels, labelOf, stageLabels } from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';
import type { CaseListRow } from '../workspace.ts';
import {
  type CaseSection,
  directionsSection,
  draftSection,
  exportsSection,
  feedbackSection,
  finalSection,
  holdingsSection,
  type SectionContext,
  validationSection,
  waitingSection,
} from './workspace.ts';

export function casesBody(rows: readonly CaseListRow[]): Html {
  if (rows.length === 0) return html`<p class="empty">אין תיקים.</p>`;
  return html`<div class="scroll"><table><thead><tr><th>מספר</th><th>כותרת</th><th>שלב</th><th>ממתין לך</th><th>מועד להחלטה</th><th>תוצאה</th><th>עודכן</th></tr></thead><tbody>${rows.map(
    (c) =>
      html`<tr><td><a href="/console/cases/${c.id}">${c.caseNumber}</a></td><td>${c.title}</td><td><span class="badge">${labelOf(stageLabels, c.stage)}</span></td><td>${waitingLabel(c)}</td><td>${dueCell(c.due)}</td><td>${labelOf(outcomeLabels, c.outcome)}</td><td>${when(c.updatedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

const waitingLabel = (c: CaseListRow): Html => {
  const parts = [
    c.approvals > 0 ? `${c.approvals} בקשות אישור` : null,
    c.directions > 0 ? `${c.directions} הכוונות מוצעות` : null,
    c.holdings > 0 ? `${c.holdings} הלכות לבחינה` : null,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? html`<span class="meta">—</span>` : html`<strong>${parts.join(' · ')}</strong>`;
};

/** The due date, and, when near or past, how many days are left in words the chair reads at a glance. */
const dueCell = (due: Deadline): Html | string => {
  if (due === null) return '';
  const day = dateOnly(new Date(`${due.due_date}T12:00:00Z`));
  if (due.warning === null) return day;
  const left =
    due.days_left < 0
      ? `חלף לפני ${-due.days_left} ימים`
      : due.days_left === 0
        ? 'היום'
        : `בעוד ${due.days_left} ימים`;
  return html`<strong class="badge ${due.state === 'passed' ? 'fail' : 'pending'}">${day} · ${left}</strong>`;
};

const dateOnly = (d: Date) =>
  new Intl.DateTimeFormat('he-IL', { timeZone: 'Asia/Jerusalem', dateStyle: 'short' }).format(d);

const field = (label: string, value: string | null) =>
  value === null || value === '' ? '' : html`<dt>${label}</dt><dd>${value}</dd>`;

/** The case page, in order: the file, then the chair's workspace (pages/workspace.ts). */
export const caseSections: CaseSection[] = [
  {
    id: 'details',
    title: 'פרטי התיק',
    render: ({ detail: { row }, workspace: ws }) => html`<dl class="args">
${field('מספר', row.caseNumber)}${field('כותרת', row.title)}${field('העוררים', row.appellant)}${field('המשיבים', row.respondent)}
${field('ועדה', row.committee)}${field('תחום', row.practiceArea === null ? null : labelOf(practiceAreaLabels, row.practiceArea))}${field('כתובת הנכס', row.propertyAddress)}
${field('מצב', labelOf(caseStatusLabels, row.status))}${field('שלב בעבודה', labelOf(stageLabels, ws.stage))}${field('תוצאה', row.outcome === null ? null : labelOf(outcomeLabels, row.outcome))}
${field('הערות', row.notes)}
</dl><p class="meta">נפתח ${when(row.createdAt)} ע״י ${agentLabel(row.createdBy)} · עודכן ${when(row.updatedAt)}</p>`,
  },
  {
    id: 'documents',
    title: 'מסמכי התיק',
    render: ({ detail: { docs } }) =>
      docs.length === 0
        ? html`<p class="empty">אין מסמכים בתיק.</p>`
        : html`<div class="scroll"><table><thead><tr><th>מסמך</th><th>מצב</th><th>עמודים</th><th>הועלה</th></tr></thead><tbody>${docs.map(
            (d) =>
              html`<tr><td>${d.title}${d.filename ? html`<div class="meta ltr">${d.filename}</div>` : ''}</td><td><span class="badge">${labelOf(documentStatusLabels, d.status)}</span></td><td>${d.pageCount ?? '—'}</td><td>${when(d.createdAt)} · ${agentLabel(d.createdBy)}</td></tr>`,
          )}</tbody></table></div>`,
  },
  { id: 'waiting', title: 'ממתין להחלטתך', render: waitingSection },
  { id: 'draft', title: 'טיוטת ההחלטה', render: draftSection },
  { id: 'validation', title: 'הבדיקה האחרונה', render: validationSection },
  { id: 'directions', title: 'הכוונות', render: directionsSection },
  { id: 'holdings', title: 'הלכות מן המקורות', render: holdingsSection },
  { id: 'exports', title: 'קובצי Word שהופקו', render: exportsSection },
  { id: 'final', title: 'הנוסח הסופי', render: finalSection },
  { id: 'feedback', title: 'הערות היו״ר', render: feedbackSection },
  {
    id: 'delete',
    title: 'מחיקת התיק',
    render: ({ detail: { row }, csrf, canCall }) =>
      canCall('case_delete')
        ? html`<p class="meta">התיק וכל מסמכיו לא יהיו נגישים עוד לסוכנים (הנתונים נשמרים לביקורת).</p>
<form class="decide" method="post" action="/console/cases/${row.id}/delete">${csrfField(csrf)}
<label for="delete-reason">נימוק למחיקה</label><input type="text" id="delete-reason" name="reason" required maxlength="2000">
<div class="buttons"><button class="danger" type="submit">מחיקת התיק</button></div></form>`
        : null,
  },
];

export async function caseBody(ctx: SectionContext): Promise<Html> {
  const parts: Html[] = [];
  for (const section of caseSections) {
    const body = await section.render(ctx);
    if (body !== null)
      parts.push(html`<section class="card" id="${section.id}"><h2>${section.title}</h2>${body}</section>`);
  }
  return html`${parts}`;
}
