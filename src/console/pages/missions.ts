// Missions: the list with the projects' inbox, and one mission's contract (current version), criteria with
// their evidence and the owner's confirmation (a free-text criterion counts only once the owner confirms it
// here), active session leases (each can be revoked), parked items, the project's inbox, and the next step
// proposed against the one accepted.
import { html } from 'hono/html';
import type { HaiMissionRow } from '../../db/schema/hai.ts';
import type { InboxRow } from '../../governance/inbox.ts';
import { labelOf, missionStateLabels } from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';
import type { MissionDetail } from '../queries.ts';

export function missionsBody(rows: readonly HaiMissionRow[], inbox: readonly InboxRow[] = []): Html {
  const table =
    rows.length === 0
      ? html`<p class="empty">אין משימות.</p>`
      : html`<div class="scroll"><table><thead><tr><th>משימה</th><th>מצב</th><th>גרסת חוזה</th><th>תיק או פרויקט</th><th>נפתחה</th></tr></thead><tbody>${rows.map(
          (m) =>
            html`<tr><td><a href="/console/missions/${m.id}">${m.title}</a><div class="meta ltr">${m.name}</div></td><td><span class="badge">${labelOf(missionStateLabels, m.state)}</span></td><td>${m.currentVersion}</td><td>${scopeCell(m)}</td><td>${when(m.openedAt)}</td></tr>`,
        )}</tbody></table></div>`;
  return html`${table}
<section class="card">
<h2>תיבת הרעיונות (${inbox.length})</h2>
${inboxList(inbox, true)}
</section>`;
}

const scopeCell = (m: HaiMissionRow): Html | string =>
  m.caseId !== null
    ? html`<a href="/console/cases/${m.caseId}">תיק</a>`
    : m.projectId === null
      ? '—'
      : html`<span class="ltr">${m.projectId}</span>`;

/** Items parked in a project's inbox (hai_park), newest first; `project` names each item's project. */
const inboxList = (items: readonly InboxRow[], project: boolean): Html =>
  items.length === 0
    ? html`<p class="empty">התיבה ריקה.</p>`
    : html`<ul class="plain">${items.map(
        (i) =>
          html`<li><div class="text">${i.text}</div><div class="meta">${project ? html`<span class="ltr">${i.projectId}</span> · ` : ''}${i.source ? html`מקור: ${i.source} · ` : ''}${i.parkedBy} · ${when(i.parkedAt)}</div></li>`,
      )}</ul>`;

const list = (items: readonly string[]) =>
  items.length === 0 ? html`<p class="empty">—</p>` : html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`;

export function missionBody(d: MissionDetail, csrf: string): Html {
  const { mission, contract, evidence, leases, parked, confirmations, inbox, nextStep } = d;
  const active = mission.state === 'active';
  return html`<p class="meta">${mission.name} · <span class="badge">${labelOf(missionStateLabels, mission.state)}</span> · נפתחה ${when(mission.openedAt)} ע״י ${mission.openedBy}${mission.projectId === null ? '' : html` · פרויקט <span class="ltr">${mission.projectId}</span>`}${mission.caseId === null ? '' : html` · <a href="/console/cases/${mission.caseId}">התיק שהמשימה מנהלת</a>`}</p>
<section class="card">
<h2>חוזה המשימה — גרסה ${mission.currentVersion}</h2>
${
  contract === undefined
    ? html`<p class="empty">החוזה לא נמצא.</p>`
    : html`<p class="text">${contract.goal}</p>
<div class="grid two"><div><h3>בתחום</h3>${list(contract.inScope)}</div><div><h3>מחוץ לתחום</h3>${list(contract.outOfScope)}</div></div>
<p class="meta">בתוקף עד ${when(contract.expiresAt)} · עד ${contract.maxSessions} הרשאות עבודה במקביל · נכתבה ע״י ${contract.createdBy}${contract.reason ? html` · נימוק: ${contract.reason}` : ''}</p>
<h3>קריטריונים והוכחות</h3>
${contract.criteria.map((c) => {
  const proofs = evidence.filter((e) => e.criterionId === c.id);
  const confirmed = confirmations.find((k) => k.criterionId === c.id);
  return html`<div class="card"><strong class="ltr">${c.id}</strong> — ${c.description}<div class="meta">אימות: ${c.verification}</div>
${criterionStatus(mission.id, c, confirmed, active, csrf)}
${
  proofs.length === 0
    ? html`<p class="empty">אין עדיין הוכחה.</p>`
    : html`<ul class="plain">${proofs.map(
        (p) =>
          html`<li><span class="badge ${p.result}">${p.result === 'pass' ? 'עבר' : 'נכשל'}</span> ${p.checked}${p.evidence ? html`<div class="meta">${p.evidence}</div>` : ''}<div class="meta">${p.recordedBy} · ${when(p.recordedAt)}</div></li>`,
      )}</ul>`
}</div>`;
})}`
}
</section>
<section class="card">
<h2>הרשאות עבודה פעילות (${leases.length})</h2>
${
  leases.length === 0
    ? html`<p class="empty">אין הרשאות פעילות.</p>`
    : leases.map(
        (
          l,
        ) => html`<div class="card"><strong>${l.agent}</strong> · גרסת חוזה ${l.contractVersion} · עד ${when(l.expiresAt)}${l.deviceId ? html` · התקן <span class="ltr">${l.deviceId}</span>` : ''}
<div class="meta ltr">${l.id}</div>
<form class="decide" method="post" action="/console/leases/${l.id}/revoke">${csrfField(csrf)}<input type="hidden" name="mission_id" value="${mission.id}">
<label for="revoke-${l.id}">נימוק לביטול</label><input type="text" id="revoke-${l.id}" name="reason" required maxlength="2000">
<div class="buttons"><button class="danger" type="submit">ביטול ההרשאה</button></div></form></div>`,
      )
}
</section>
<section class="card">
<h2>פריטים שהוחנו (${parked.length})</h2>
${
  parked.length === 0
    ? html`<p class="empty">אין.</p>`
    : html`<ul class="plain">${parked.map((p) => html`<li>${p.item}<div class="meta">${p.rationale} · ${p.parkedBy} · ${when(p.parkedAt)}</div></li>`)}</ul>`
}
</section>
${
  mission.projectId === null
    ? ''
    : html`<section class="card">
<h2>תיבת הרעיונות של הפרויקט (${inbox.length})</h2>
${inboxList(inbox, false)}
</section>`
}
${nextStep === null ? '' : nextStepSection(nextStep, mission.id, csrf)}`;
}

/**
 * Who decides the criterion: the server for a checked one; the owner for a free-text one — confirmed (by
 * whom, why), or a form to confirm it after reading the evidence below.
 */
function criterionStatus(
  missionId: string,
  c: { id: string; check?: { kind: string } | null },
  confirmed: MissionDetail['confirmations'][number] | undefined,
  active: boolean,
  csrf: string,
): Html {
  if (c.check)
    return html`<p class="meta">נבדק על ידי השרת בעת סגירת המשימה (<span class="ltr">${c.check.kind}</span>).</p>`;
  if (confirmed !== undefined)
    return html`<p><span class="badge pass">אושר על ידך</span> ${confirmed.reason}<span class="meta"> · ${when(confirmed.confirmedAt)}</span></p>`;
  if (!active) return html`<p class="meta">לא אושר.</p>`;
  const field = `confirm-${c.id}`;
  return html`<form class="decide" method="post" action="/console/missions/${missionId}/criteria/${c.id}/confirm">${csrfField(csrf)}
<p class="meta">קריטריון מילולי: הוא נחשב מתקיים רק לאחר שתאשר אותו כאן, לאחר קריאת ההוכחות.</p>
<label for="${field}">מה ראית שמראה שהקריטריון מתקיים</label><input type="text" id="${field}" name="reason" required maxlength="2000">
<div class="buttons"><button type="submit">אישור הקריטריון</button></div></form>`;
}

function nextStepSection(n: NonNullable<MissionDetail['nextStep']>, missionId: string, csrf: string): Html {
  return html`<section class="card">
<h2>הצעד הבא: מוצע מול מאושר</h2>
<div class="grid two">
<div><h3>מוצע${n.pending === undefined ? '' : html` (גרסה ${n.pending.proposal.version}, ${n.pending.proposal.proposedBy})`}</h3>
${
  n.pending === undefined
    ? html`<p class="empty">אין הצעה ממתינה.</p>`
    : html`<div class="text">${n.pending.artifact.content}</div>
<form class="decide" method="post" action="/console/projects/${n.projectId}/next-step">${csrfField(csrf)}
<input type="hidden" name="proposal_version" value="${n.pending.proposal.version}"><input type="hidden" name="mission_id" value="${missionId}">
<label for="accept-reason">נימוק לאישור</label><input type="text" id="accept-reason" name="reason" required maxlength="2000">
<div class="buttons"><button type="submit">אישור ההצעה כצעד הבא</button></div></form>`
}</div>
<div><h3>מאושר${n.accepted === undefined ? '' : html` (גרסה ${n.accepted.version})`}</h3>
${n.accepted === undefined ? html`<p class="empty">טרם אושר צעד.</p>` : html`<div class="text">${n.accepted.content}</div>`}</div>
</div>
</section>`;
}
