// The chair's workspace on a case page: the draft block by block (numbered as the Word export numbers it)
// with the latest check's findings beside the blocks they concern, the directions, the holdings of the case's
// sources, the exports to download, the final version, and the chair's remarks. Each action is a form the
// chair submits as the owner (src/console/routes.ts), a tool call through the kernel like an agent's.
import { html } from 'hono/html';
import { blockKinds } from '../../db/schema/drafting.ts';
import { feedbackKinds } from '../../db/schema/review.ts';
import { outcomeLabels } from '../../db/schema/vocabulary.ts';
import type { Db } from '../../db/types.ts';
import type { DraftPart } from '../../drafting/assemble.ts';
import type { Finding } from '../../review/findings.ts';
import {
  agentLabel,
  blockKindLabels,
  corpusLabels,
  directionStatusLabels,
  feedbackKindLabels,
  findingLabels,
  holdingStatusLabels,
  labelOf,
  severityLabels,
  toolLabel,
} from '../labels.ts';
import { csrfField, type Html, when } from '../layout.ts';
import { readable, sizeLabel } from '../meaning.ts';
import type { CaseDetail } from '../queries.ts';
import type { Workspace } from '../workspace.ts';

export interface SectionContext {
  db: Db;
  detail: CaseDetail;
  workspace: Workspace;
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

type Render = (ctx: SectionContext) => Html | null;

const reasonField = (id: string, label = 'נימוק (נשמר ביומן)') =>
  html`<label for="${id}">${label}</label><input type="text" id="${id}" name="reason" required maxlength="2000">`;

/** A finding as the chair reads it: what it is, the words concerned; the validator's own text for an expert. */
const findingItem = (f: Finding): Html =>
  html`<li class="finding ${f.severity}"><span class="badge ${f.severity === 'error' ? 'fail' : ''}">${labelOf(severityLabels, f.severity)}</span> ${findingLabels[f.code] ?? f.message}${f.provenance.excerpt === null ? '' : html` <q>${f.provenance.excerpt}</q>`}
<details class="expert"><summary>פירוט</summary><p class="ltr">${f.message}</p><p class="ltr">${f.fix}</p></details></li>`;

/** The findings of the latest check that concern a part: by its block, or (a missing block) by its kind. */
const findingsOf = (part: DraftPart, findings: readonly Finding[]): Finding[] =>
  findings.filter((f) =>
    part.key !== null ? f.block === part.key : f.block === null && f.block_kind === part.kind,
  );

export const waitingSection: Render = ({ workspace: ws }) => {
  const directions = ws.directions.filter((d) => d.status === 'proposed').length;
  const holdings = ws.holdings.filter((h) => h.holding.status === 'pending').length;
  if (ws.pending.length === 0 && directions === 0 && holdings === 0) return null;
  return html`<ul class="plain">
${ws.pending.map((r) => html`<li><a href="/console/approvals/${r.id}">${toolLabel(r.tool)}</a> <span class="meta">${agentLabel(r.agent)} · ${when(r.requestedAt)}</span></li>`)}
${directions === 0 ? '' : html`<li><a href="#directions">${directions} הכוונות מוצעות ממתינות לאישורך</a></li>`}
${holdings === 0 ? '' : html`<li><a href="#holdings">${holdings} הלכות ממתינות לבחינתך</a></li>`}
</ul>`;
};

export const draftSection: Render = ({ workspace: ws }) => {
  const { draft } = ws;
  if (draft.parts.every((p) => p.placeholder)) return html`<p class="empty">אין עדיין טיוטה.</p>`;
  const findings = ws.validation?.view.findings ?? [];
  const missing = draft.missing.length === 0 ? '' : ` · ${draft.missing.length} חלקי חובה טרם נכתבו`;
  return html`<p class="meta">${draft.paragraphs} פסקאות ממוספרות, במספור של קובץ ה־Word${missing}</p>
<div class="draft">${draft.parts.map((part) => {
    const own = findingsOf(part, findings);
    return html`<div class="block${part.placeholder ? ' placeholder' : ''}${own.length > 0 ? ' flagged' : ''}" id="block-${part.key ?? part.kind}">
${part.heading === null ? '' : html`<h3>${part.heading}</h3>`}${part.subheading === null ? '' : html`<h4>${part.subheading}</h4>`}
<p class="meta">${labelOf(blockKindLabels, part.kind)}${part.version === null ? '' : ` · גרסה ${part.version}`}</p>
${part.paragraphs.map((p) => html`<p class="para">${p.n === null ? '' : html`<span class="num">${p.n}.</span> `}${p.text}</p>`)}
${own.length === 0 ? '' : html`<aside class="findings" aria-label="ממצאי הבדיקה לחלק זה"><ul class="plain">${own.map(findingItem)}</ul></aside>`}
</div>`;
  })}</div>`;
};

export const validationSection: Render = ({ workspace: ws }) => {
  const v = ws.validation;
  if (v === null) return html`<p class="empty">הטיוטה טרם נבדקה.</p>`;
  const { view } = v;
  const placed = new Set(
    ws.draft.parts.flatMap((part) => findingsOf(part, view.findings)).map((f) => view.findings.indexOf(f)),
  );
  const loose = view.findings.filter((_, i) => !placed.has(i));
  return html`<p><span class="badge ${view.valid ? 'pass' : 'fail'}">${view.valid ? 'תקינה' : 'נמצאו שגיאות'}</span>
${view.errors} שגיאות · ${view.warnings} אזהרות · נבדקה ${when(new Date(view.checked_at))}${v.current ? '' : html` · <strong>הטיוטה השתנתה מאז</strong>`}</p>
${view.findings.length === 0 ? '' : html`<p class="meta">ממצאים הנוגעים לחלק מסוים מוצגים לצדו בטיוטה.</p>`}
${loose.length === 0 ? '' : html`<h3>ממצאים שאינם בחלק מסוים</h3><ul class="plain">${loose.map(findingItem)}</ul>`}`;
};

export const directionsSection: Render = ({ workspace: ws, csrf, canCall, detail: { row } }) => {
  if (ws.directions.length === 0) return html`<p class="empty">טרם הוצעה הכוונה.</p>`;
  const canApprove = canCall('direction_approve');
  const canReject = canCall('direction_review');
  return html`${ws.directions.map(
    (
      d,
    ) => html`<article class="card ${d.status === 'approved' ? 'approved' : d.status === 'proposed' ? 'pending' : ''}" id="direction-${d.id}">
<h3>${d.title} <span class="badge ${d.status === 'approved' ? 'approved' : ''}">${labelOf(directionStatusLabels, d.status)}</span></h3>
<p class="meta">מובילה ל: ${labelOf(outcomeLabels, d.outcome)} · הוצעה ע״י ${agentLabel(d.proposedBy)} ${when(d.createdAt)}</p>
${readable(d.rationale)}
${d.approvedBy === null ? '' : html`<p class="meta">אושרה ע״י ${agentLabel(d.approvedBy)} ${when(d.approvedAt)}${d.approvalReason === null ? '' : ` — ${d.approvalReason}`}</p>`}
${d.rejectedBy === null ? '' : html`<p class="meta">נדחתה ע״י ${agentLabel(d.rejectedBy)} ${when(d.rejectedAt)} — ${d.rejectionReason ?? ''}</p>`}
${
  d.status === 'proposed' && canApprove
    ? html`<form class="decide" method="post" action="/console/directions/${d.id}/approve">${csrfField(csrf)}
<input type="hidden" name="case_id" value="${row.id}">${reasonField(`direction-reason-${d.id}`, 'נימוק האישור (נשמר ביומן)')}
<div class="buttons"><button type="submit">אישור ההכוונה</button></div></form>`
    : ''
}
${
  d.status === 'proposed' && canReject
    ? html`<form class="decide" method="post" action="/console/directions/${d.id}/reject">${csrfField(csrf)}
<input type="hidden" name="case_id" value="${row.id}">${reasonField(`direction-reject-${d.id}`, 'נימוק הדחייה (יוצג לסוכנים)')}
<div class="buttons"><button type="submit" class="secondary">דחיית ההכוונה</button></div></form>`
    : ''
}
</article>`,
  )}`;
};

export const holdingsSection: Render = ({ workspace: ws, csrf, canCall, detail: { row } }) => {
  if (ws.holdings.length === 0) return null;
  const canReview = canCall('halacha_review');
  return html`<p class="meta">הלכות שחולצו מן הפסיקה וההחלטות שהטיוטה מפנה אליהן.</p>
${ws.holdings.map(
  ({ holding: h, document: d }) => html`<article class="card ${h.status}" id="holding-${h.id}">
<h3>${d.number === null ? d.title : `${d.number} — ${d.title}`} <span class="badge ${h.status}">${labelOf(holdingStatusLabels, h.status)}</span></h3>
<p class="meta">${labelOf(corpusLabels, d.corpus)} · עמוד ${h.page}${h.topic === null ? '' : ` · ${h.topic}`}</p>
${readable(h.approvedText ?? h.text)}
${h.reviewedBy === null ? '' : html`<p class="meta">נבחנה ע״י ${agentLabel(h.reviewedBy)} ${when(h.reviewedAt)}${h.reviewReason === null ? '' : ` — ${h.reviewReason}`}</p>`}
${
  h.status === 'pending' && canReview
    ? html`<form class="decide" method="post" action="/console/holdings/${h.id}/review">${csrfField(csrf)}
<input type="hidden" name="case_id" value="${row.id}">${reasonField(`holding-reason-${h.id}`)}
<div class="buttons"><button type="submit" name="decision" value="approve">אישור ההלכה</button><button type="submit" name="decision" value="reject" class="danger">דחיית ההלכה</button></div></form>`
    : ''
}
</article>`,
)}`;
};

export const exportsSection: Render = ({ workspace: ws, detail: { row } }) => {
  if (ws.exports.length === 0) return html`<p class="empty">טרם הופק קובץ Word.</p>`;
  return html`<div class="scroll"><table><thead><tr><th>הופק</th><th>ע״י</th><th>חלקים</th><th>גודל</th><th>הורדה</th></tr></thead><tbody>${ws.exports.map(
    (e, i) =>
      html`<tr><td>${when(e.createdAt)}${i === 0 ? html` <span class="badge">האחרון</span>` : ''}</td><td>${agentLabel(e.createdBy)}</td><td>${e.blocks}</td><td>${sizeLabel(e.byteSize)}</td><td><a href="/console/cases/${row.id}/exports/${e.id}" download>הורדת קובץ Word</a></td></tr>`,
  )}</tbody></table></div>`;
};

const percent = (r: number | null) => (r === null ? 'לא נמצא בקובץ' : `${Math.round(r * 100)}%`);

export const finalSection: Render = ({ workspace: ws, csrf, canCall, detail: { row } }) => {
  const upload = canCall('final_version_ingest')
    ? html`<form class="decide" method="post" action="/console/cases/${row.id}/final" enctype="multipart/form-data">${csrfField(csrf)}
<label for="final-file">הקובץ החתום (Word)</label><input type="file" id="final-file" name="file" accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document">
<label for="final-text">או הנוסח הסופי כטקסט</label><textarea id="final-text" name="text" maxlength="2000000"></textarea>
${reasonField('final-reason', 'הערה לקליטה (נשמרת ביומן)')}
<div class="buttons"><button type="submit">קליטת הנוסח החתום</button></div></form>`
    : '';
  const f = ws.final;
  if (f === null) {
    const text = row.finalText;
    return html`${text === null ? html`<p class="empty">הנוסח החתום טרם נקלט.</p>` : html`<p class="meta">נקלט ${when(row.finalTextAt)}</p>${readable(text)}`}
${upload === '' ? '' : html`<h3>קליטת הנוסח החתום</h3>`}${upload}`;
  }
  const changes = f.blocks.flatMap((b) => b.changes.map((c) => ({ kind: b.kind, ...c })));
  const comments = f.blocks.flatMap((b) => b.comments.map((c) => ({ kind: b.kind, ...c })));
  return html`<p class="meta">נקלט ${when(f.version.createdAt)} ע״י ${agentLabel(f.version.createdBy)} · ${f.version.format === 'docx' ? 'מקובץ Word' : 'כטקסט'}</p>
${readable(f.version.text)}
${
  f.blocks.length === 0
    ? ''
    : html`<h3>מה שונה בכל חלק</h3><div class="scroll"><table><thead><tr><th>חלק</th><th>שיעור העריכה</th><th>שינויים במעקב</th><th>הערות</th></tr></thead><tbody>${f.blocks.map(
        (b) =>
          html`<tr><td>${labelOf(blockKindLabels, b.kind)}</td><td>${percent(b.editRatio)}</td><td>${b.changes.length}</td><td>${b.comments.length}</td></tr>`,
      )}</tbody></table></div>`
}
${
  changes.length === 0
    ? ''
    : html`<h3>שינויים במעקב</h3><ul class="plain">${changes.map((c) => html`<li><span class="badge">${c.type === 'insertion' ? 'הוספה' : 'מחיקה'}</span> ${labelOf(blockKindLabels, c.kind)}: <q>${c.text}</q>${c.author === null ? '' : html` <span class="meta">${c.author}</span>`}</li>`)}</ul>`
}
${
  comments.length === 0
    ? ''
    : html`<h3>הערות בקובץ</h3><ul class="plain">${comments.map((c) => html`<li>${labelOf(blockKindLabels, c.kind)}: ${c.text}${c.anchored_text === '' ? '' : html` <span class="meta">על <q>${c.anchored_text}</q></span>`}${c.author === null ? '' : html` <span class="meta">${c.author}</span>`}</li>`)}</ul>`
}`;
};

export const feedbackSection: Render = ({ workspace: ws, csrf, canCall, detail: { row } }) => {
  const list =
    ws.feedback.length === 0
      ? html`<p class="empty">אין עדיין הערות לתיק.</p>`
      : html`<ul class="plain">${ws.feedback.map((f) => html`<li><span class="badge">${labelOf(feedbackKindLabels, f.kind)}</span> ${f.blockKind === null ? 'ההחלטה כולה' : labelOf(blockKindLabels, f.blockKind)}: ${f.text} <span class="meta">${when(f.createdAt)}</span></li>`)}</ul>`;
  if (!canCall('feedback_record')) return list;
  return html`${list}
<form class="decide" method="post" action="/console/cases/${row.id}/feedback">${csrfField(csrf)}
<label for="feedback-block">על איזה חלק</label><select id="feedback-block" name="block_kind"><option value="">ההחלטה כולה</option>${blockKinds.map((k) => html`<option value="${k}">${labelOf(blockKindLabels, k)}</option>`)}</select>
<label for="feedback-kind">סוג ההערה</label><select id="feedback-kind" name="kind">${feedbackKinds.map((k) => html`<option value="${k}">${labelOf(feedbackKindLabels, k)}</option>`)}</select>
<label for="feedback-text">ההערה</label><textarea id="feedback-text" name="text" required maxlength="5000"></textarea>
<div class="buttons"><button type="submit">רישום ההערה</button></div></form>`;
};
