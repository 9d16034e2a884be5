// Cases: the list with stage and outcome, and a case page built from sections. Each section renders what
// the case has and says nothing when there is nothing to show (or the owner cannot call the tool it needs).
import { html } from 'hono/html';
import { outcomeLabels, practiceAreaLabels } from '../../db/schema/vocabulary.ts';
import type { Db } from '../../db/types.ts';
import { assemble, renderDraft } from '../../drafting/assemble.ts';
import { currentBlocks } from '../../drafting/store.ts';
import { caseStatusLabels, documentStatusLabels, labelOf } from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';
import type { CaseDetail, caseList } from '../queries.ts';

type CaseRows = Awaited<ReturnType<typeof caseList>>;

export function casesBody(rows: CaseRows): Html {
  if (rows.length === 0) return html`<p class="empty">אין תיקים.</p>`;
  return html`<div class="scroll"><table><thead><tr><th>מספר</th><th>כותרת</th><th>שלב</th><th>תוצאה</th><th>עודכן</th></tr></thead><tbody>${rows.map(
    (c) =>
      html`<tr><td><a href="/console/cases/${c.id}">${c.caseNumber}</a></td><td>${c.title}</td><td><span class="badge">${labelOf(caseStatusLabels, c.status)}</span></td><td>${labelOf(outcomeLabels, c.outcome)}</td><td>${when(c.updatedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

export interface SectionContext {
  db: Db;
  detail: CaseDetail;
  csrf: string;
  /** Whether the owner can call a tool here (registered, and the owner's to call). */
  canCall(tool: string): boolean;
}

export interface CaseSection {
  id: string;
  title: string;
  /** The section's body, or null when there is nothing to show for this case (yet). */
  render(ctx: SectionContext): Html | null | Promise<Html | null>;
}

const field = (label: string, value: string | null) =>
  value === null || value === '' ? '' : html`<dt>${label}</dt><dd>${value}</dd>`;

/** The case page, in order. Later families add theirs (draft with its anchors, findings, exports…). */
export const caseSections: CaseSection[] = [
  {
    id: 'details',
    title: 'פרטי התיק',
    render: ({ detail: { row } }) => html`<dl class="args">
${field('מספר', row.caseNumber)}${field('כותרת', row.title)}${field('העוררים', row.appellant)}${field('המשיבים', row.respondent)}
${field('ועדה', row.committee)}${field('תחום', row.practiceArea === null ? null : labelOf(practiceAreaLabels, row.practiceArea))}${field('כתובת הנכס', row.propertyAddress)}
${field('שלב', labelOf(caseStatusLabels, row.status))}${field('תוצאה', row.outcome === null ? null : labelOf(outcomeLabels, row.outcome))}
${field('הערות', row.notes)}
</dl><p class="meta">נפתח ${when(row.createdAt)} ע״י ${row.createdBy} · עודכן ${when(row.updatedAt)}</p>`,
  },
  {
    id: 'documents',
    title: 'מסמכי התיק',
    render: ({ detail: { docs } }) =>
      docs.length === 0
        ? html`<p class="empty">אין מסמכים בתיק.</p>`
        : html`<div class="scroll"><table><thead><tr><th>מסמך</th><th>מצב</th><th>עמודים</th><th>הועלה</th></tr></thead><tbody>${docs.map(
            (d) =>
              html`<tr><td>${d.title}${d.filename ? html`<div class="meta ltr">${d.filename}</div>` : ''}</td><td><span class="badge">${labelOf(documentStatusLabels, d.status)}</span></td><td>${d.pageCount ?? '—'}</td><td>${when(d.createdAt)} · ${d.createdBy}</td></tr>`,
          )}</tbody></table></div>`,
  },
  {
    // The signed final text once taken in; before that the draft as draft_get assembles it from the blocks.
    id: 'draft',
    title: 'טיוטת ההחלטה',
    render: async ({ db, detail: { row } }) => {
      if (row.finalText !== null)
        return html`<p class="meta">הנוסח הסופי, נקלט ${when(row.finalTextAt)}</p><div class="text">${row.finalText}</div>`;
      const draft = assemble(await currentBlocks(db, row.id));
      if (draft.parts.every((p) => p.placeholder)) return html`<p class="empty">אין עדיין טיוטה.</p>`;
      const missing = draft.missing.length === 0 ? '' : ` · ${draft.missing.length} חלקים חובה טרם נכתבו`;
      return html`<p class="meta">${draft.paragraphs} פסקאות ממוספרות${missing}</p><div class="text">${renderDraft(draft, 'text')}</div>`;
    },
  },
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
