// Missions: the list, and one mission's contract (current version), criteria with their evidence, active
// session leases (each can be revoked), parked items, and the next step proposed against the one accepted.
import { html } from 'hono/html';
import type { HaiMissionRow } from '../../db/schema/hai.ts';
import { labelOf, missionStateLabels } from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';
import type { MissionDetail } from '../queries.ts';

export function missionsBody(rows: readonly HaiMissionRow[]): Html {
  if (rows.length === 0) return html`<p class="empty">אין משימות.</p>`;
  return html`<div class="scroll"><table><thead><tr><th>משימה</th><th>מצב</th><th>גרסת חוזה</th><th>פרויקט</th><th>נפתחה</th></tr></thead><tbody>${rows.map(
    (m) =>
      html`<tr><td><a href="/console/missions/${m.id}">${m.title}</a><div class="meta ltr">${m.name}</div></td><td><span class="badge">${labelOf(missionStateLabels, m.state)}</span></td><td>${m.currentVersion}</td><td>${m.projectId ?? '—'}</td><td>${when(m.openedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

const list = (items: readonly string[]) =>
  items.length === 0 ? html`<p class="empty">—</p>` : html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`;

export function missionBody(d: MissionDetail, csrf: string): Html {
  const { mission, contract, evidence, leases, parked, nextStep } = d;
  return html`<p class="meta">${mission.name} · <span class="badge">${labelOf(missionStateLabels, mission.state)}</span> · נפתחה ${when(mission.openedAt)} ע״י ${mission.openedBy}${mission.projectId === null ? '' : html` · פרויקט <span class="ltr">${mission.projectId}</span>`}</p>
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
  return html`<div class="card"><strong class="ltr">${c.id}</strong> — ${c.description}<div class="meta">אימות: ${c.verification}</div>
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
${nextStep === null ? '' : nextStepSection(nextStep, mission.id, csrf)}`;
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
