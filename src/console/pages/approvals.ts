// Approval requests: what waits for the owner, and one request with the approve/reject form.

import { html } from 'hono/html';
import type { OwnerApprovalRow } from '../../db/schema/owners.ts';
import type { Db } from '../../db/types.ts';
import { agentLabel, approvalStateLabels, labelOf, toolLabel } from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';
import { expertArgs, type Meaning, meaningOf } from '../meaning.ts';

/** Each request's meaning (src/console/meaning.ts), by request id. */
export async function meaningsOf(db: Db, rows: readonly OwnerApprovalRow[]): Promise<Map<string, Meaning>> {
  const out = new Map<string, Meaning>();
  for (const r of rows) out.set(r.id, await meaningOf(db, r));
  return out;
}

/** What the call means, then the raw call for an expert. */
function meaningList(row: OwnerApprovalRow, meaning: Meaning | undefined): Html {
  const items = meaning?.items ?? [];
  return html`${items.length === 0 ? '' : html`<dl class="meaning">${items.map((i) => html`<dt>${i.label}</dt><dd>${i.body}</dd>`)}</dl>`}
<p class="effect"><strong>${row.state === 'pending' ? 'אם תאשרו:' : 'משמעות האישור:'}</strong> ${meaning?.effect ?? ''}</p>
<details class="expert"><summary>תצוגת מומחה: הקריאה כפי שנשלחה</summary>
<p class="meta">כלי <code>${row.tool}</code> · סוכן <code>${row.agent}</code></p>
<pre>${JSON.stringify(expertArgs(row.args), null, 2)}</pre></details>`;
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
  meanings: Map<string, Meaning>,
  csrf: string,
  options: { link?: boolean } = {},
): Html {
  return html`<article class="card ${row.state}" id="approval-${row.id}">
<h2>${options.link ? html`<a href="/console/approvals/${row.id}">${toolLabel(row.tool)}</a>` : toolLabel(row.tool)} <span class="badge ${row.state}">${labelOf(approvalStateLabels, row.state)}</span></h2>
<p class="meta">ביקש/ה: ${agentLabel(row.agent)} · ${when(row.requestedAt)}</p>
<h3>מה מבקשים</h3>
${meaningList(row, meanings.get(row.id))}
<h3>נימוק המבקש</h3>
<p class="text">${row.agentReason ?? '—'}</p>
${
  row.state === 'pending'
    ? decisionForms(row, csrf)
    : html`<h3>החלטת היו״ר</h3>
<p>${row.decidedByName ?? '—'} · ${when(row.decidedAt)}</p>
<p class="text">${row.decisionReason ?? '—'}</p>
${row.state === 'approved' ? html`<p class="meta">בתוקף עד ${when(row.expiresAt)}, לקריאה אחת.</p>` : ''}
${row.state === 'used' ? html`<p class="meta">נוצלה ${when(row.usedAt)}.</p>` : ''}`
}
</article>`;
}

export function approvalsBody(
  pending: readonly OwnerApprovalRow[],
  decided: readonly OwnerApprovalRow[],
  meanings: Map<string, Meaning>,
  csrf: string,
): Html {
  return html`<h2>ממתינות להחלטה (${pending.length})</h2>
${pending.length === 0 ? html`<p class="empty">אין בקשות ממתינות.</p>` : pending.map((r) => approvalCard(r, meanings, csrf, { link: true }))}
<h2>החלטות אחרונות</h2>
${
  decided.length === 0
    ? html`<p class="empty">עדיין לא התקבלו החלטות.</p>`
    : html`<div class="scroll"><table><thead><tr><th>פעולה</th><th>ביקש/ה</th><th>מצב</th><th>החליט/ה</th><th>מתי</th></tr></thead><tbody>${decided.map(
        (r) =>
          html`<tr><td><a href="/console/approvals/${r.id}">${toolLabel(r.tool)}</a></td><td>${agentLabel(r.agent)}</td><td><span class="badge ${r.state}">${labelOf(approvalStateLabels, r.state)}</span></td><td>${r.decidedByName ?? '—'}</td><td>${when(r.decidedAt)}</td></tr>`,
      )}</tbody></table></div>`
}`;
}
