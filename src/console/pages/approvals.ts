// Approval requests: what waits for the owner, and one request with the approve/reject form.

import { html } from 'hono/html';
import { inArray } from '../../db/orm.ts';
import { cases } from '../../db/schema/cases.ts';
import type { OwnerApprovalRow } from '../../db/schema/owners.ts';
import type { Db } from '../../db/types.ts';
import { approvalStateLabels, labelOf, toolLabel } from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';

/** Case numbers and titles for the case ids among the requests' arguments, so the owner sees which file. */
export async function casesNamed(db: Db, rows: readonly OwnerApprovalRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.args.case_id).filter((v): v is string => typeof v === 'string'))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: cases.id, number: cases.caseNumber, title: cases.title })
    .from(cases)
    .where(inArray(cases.id, ids));
  return new Map(found.map((c) => [c.id, `${c.number} — ${c.title}`]));
}

/** The arguments, one per line: text as it is, anything else as indented JSON. */
function argumentList(args: Record<string, unknown>, named: Map<string, string>): Html {
  const entries = Object.entries(args);
  if (entries.length === 0) return html`<p class="empty">ללא ארגומנטים</p>`;
  return html`<dl class="args">${entries.map(([k, v]) => {
    const shown =
      typeof v === 'string' ? html`<span>${v}</span>` : html`<pre>${JSON.stringify(v, null, 2)}</pre>`;
    const note = k === 'case_id' && typeof v === 'string' ? named.get(v) : undefined;
    return html`<dt>${k}</dt><dd>${shown}${note === undefined ? '' : html`<div class="meta">${note}</div>`}</dd>`;
  })}</dl>`;
}

function decisionForms(row: OwnerApprovalRow, csrf: string): Html {
  return html`<form class="decide" method="post" action="/console/approvals/${row.id}">
${csrfField(csrf)}
<label for="reason-${row.id}">נימוק ההחלטה (יירשם ביומן ויוצג לסוכן)</label>
<textarea id="reason-${row.id}" name="reason" required maxlength="2000"></textarea>
<div class="buttons">
<button type="submit" name="decision" value="approve">אישור</button>
<button type="submit" name="decision" value="reject" class="danger">דחייה</button>
</div>
</form>`;
}

export function approvalCard(
  row: OwnerApprovalRow,
  named: Map<string, string>,
  csrf: string,
  options: { link?: boolean } = {},
): Html {
  return html`<article class="card ${row.state}" id="approval-${row.id}">
<h2>${options.link ? html`<a href="/console/approvals/${row.id}">${toolLabel(row.tool)}</a>` : toolLabel(row.tool)} <span class="badge ${row.state}">${labelOf(approvalStateLabels, row.state)}</span></h2>
<p class="meta">כלי <code>${row.tool}</code> · סוכן <strong>${row.agent}</strong> · התבקש ${when(row.requestedAt)}</p>
<h3>נימוק הסוכן</h3>
<p class="text">${row.agentReason ?? '—'}</p>
<h3>הארגומנטים של הקריאה</h3>
${argumentList(row.args, named)}
${
  row.state === 'pending'
    ? decisionForms(row, csrf)
    : html`<h3>החלטת הבעלים</h3>
<p>${row.decidedByName ?? '—'} · ${when(row.decidedAt)}</p>
<p class="text">${row.decisionReason ?? '—'}</p>
${row.state === 'approved' ? html`<p class="meta">בתוקף עד ${when(row.expiresAt)}, לקריאה אחת.</p>` : ''}
${row.state === 'used' ? html`<p class="meta">נוצלה ${when(row.usedAt)} (בקשה <code>${row.usedRequestId ?? ''}</code>).</p>` : ''}`
}
</article>`;
}

export function approvalsBody(
  pending: readonly OwnerApprovalRow[],
  decided: readonly OwnerApprovalRow[],
  named: Map<string, string>,
  csrf: string,
): Html {
  return html`<h2>ממתינות להחלטה (${pending.length})</h2>
${pending.length === 0 ? html`<p class="empty">אין בקשות ממתינות.</p>` : pending.map((r) => approvalCard(r, named, csrf, { link: true }))}
<h2>החלטות אחרונות</h2>
${
  decided.length === 0
    ? html`<p class="empty">עדיין לא התקבלו החלטות.</p>`
    : html`<div class="scroll"><table><thead><tr><th>פעולה</th><th>סוכן</th><th>מצב</th><th>החליט/ה</th><th>מתי</th></tr></thead><tbody>${decided.map(
        (r) =>
          html`<tr><td><a href="/console/approvals/${r.id}">${toolLabel(r.tool)}</a></td><td>${r.agent}</td><td><span class="badge ${r.state}">${labelOf(approvalStateLabels, r.state)}</span></td><td>${r.decidedByName ?? '—'}</td><td>${when(r.decidedAt)}</td></tr>`,
      )}</tbody></table></div>`
}`;
}
