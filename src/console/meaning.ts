// What an approval request means, for the chair who decides it: per owner-gated tool, every id resolved to
// what it names (a case's number and title, a direction's title and rationale, a holding's text and source, a
// document's title and role, a mission's title), a file summarised (name, size, type; a Word file's blocks),
// long text shown readably, and one Hebrew sentence of what will happen if approved. The raw arguments are
// shown only in the expert view. A test walks the registry: every gated tool has a renderer here.
import { html } from 'hono/html';
import { and, eq } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import { haiArtifacts, haiMissions, haiProjects } from '../db/schema/hai.ts';
import { holdings } from '../db/schema/holdings.ts';
import type { OwnerApprovalRow } from '../db/schema/owners.ts';
import { directions } from '../db/schema/review.ts';
import { outcomeLabels } from '../db/schema/vocabulary.ts';
import type { Db } from '../db/types.ts';
import { contentBytes } from '../documents/uploads.ts';
import { readDocx } from '../drafting/docx_reader.ts';
import { acceptedText } from '../drafting/final.ts';
import { isZip } from '../drafting/zip.ts';
import { NEXT_STEP_PROPOSED } from '../governance/artifacts.ts';
import {
  blockKindLabels,
  corpusLabels,
  directionStatusLabels,
  documentRoleLabels,
  holdingStatusLabels,
  labelOf,
} from './labels.ts';
import type { Html } from './layout.ts';

/** One thing the call names or carries, under a Hebrew label. */
export interface MeaningItem {
  label: string;
  body: Html;
}

export interface Meaning {
  /** One Hebrew sentence: what will happen if the chair approves. */
  effect: string;
  items: MeaningItem[];
}

type Args = Record<string, unknown>;
export type MeaningRenderer = (db: Db, args: Args) => Promise<Meaning>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const missing = html`<span class="empty">לא נמצא (אולי נמחק)</span>`;

/** Text up to this many characters is shown whole; longer text opens from its beginning. */
const PREVIEW_CHARS = 600;

/** Long text, readable: its opening, and the whole of it one click away. */
export function readable(text: string): Html {
  if (text.length <= PREVIEW_CHARS) return html`<div class="text">${text}</div>`;
  return html`<div class="text">${text.slice(0, PREVIEW_CHARS)}…</div>
<details><summary>הטקסט המלא (${text.length.toLocaleString('he-IL')} תווים)</summary><div class="text">${text}</div></details>`;
}

export const sizeLabel = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} בתים`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} ק״ב`
      : `${(bytes / 1024 / 1024).toFixed(1)} מ״ב`;

async function caseItem(db: Db, id: unknown): Promise<MeaningItem & { name: string | null }> {
  const caseId = str(id);
  const [row] =
    caseId === null
      ? []
      : await db
          .select({ number: cases.caseNumber, title: cases.title })
          .from(cases)
          .where(eq(cases.id, caseId));
  const name = row === undefined ? null : `${row.number} — ${row.title}`;
  return { label: 'התיק', body: name === null ? missing : html`<span>${name}</span>`, name };
}

async function directionItems(db: Db, id: unknown): Promise<{ items: MeaningItem[]; title: string | null }> {
  const directionId = str(id);
  const [row] =
    directionId === null
      ? []
      : await db
          .select({ d: directions, number: cases.caseNumber, caseTitle: cases.title })
          .from(directions)
          .innerJoin(cases, eq(cases.id, directions.caseId))
          .where(eq(directions.id, directionId));
  if (row === undefined) return { items: [{ label: 'ההכוונה', body: missing }], title: null };
  const d = row.d;
  return {
    title: d.title,
    items: [
      { label: 'התיק', body: html`<span>${row.number} — ${row.caseTitle}</span>` },
      {
        label: 'ההכוונה',
        body: html`<strong>${d.title}</strong> <span class="badge">${labelOf(directionStatusLabels, d.status)}</span>`,
      },
      { label: 'התוצאה שאליה היא מובילה', body: html`<span>${labelOf(outcomeLabels, d.outcome)}</span>` },
      { label: 'הנימוק', body: readable(d.rationale) },
    ],
  };
}

async function holdingItems(db: Db, id: unknown): Promise<MeaningItem[]> {
  const holdingId = str(id);
  const [row] =
    holdingId === null
      ? []
      : await db
          .select({ h: holdings, title: documents.title, number: documents.number, corpus: documents.corpus })
          .from(holdings)
          .innerJoin(documents, eq(documents.id, holdings.documentId))
          .where(eq(holdings.id, holdingId));
  if (row === undefined) return [{ label: 'ההלכה', body: missing }];
  const h = row.h;
  return [
    { label: 'ההלכה', body: readable(h.approvedText ?? h.text) },
    {
      label: 'המקור',
      body: html`<span>${row.number === null ? '' : `${row.number} · `}${row.title}</span> <span class="meta">${labelOf(corpusLabels, row.corpus)}, עמוד ${h.page}</span>`,
    },
    { label: 'מצב', body: html`<span class="badge">${labelOf(holdingStatusLabels, h.status)}</span>` },
  ];
}

export async function documentItem(db: Db, id: unknown): Promise<MeaningItem> {
  const documentId = str(id);
  const [row] =
    documentId === null
      ? []
      : await db
          .select({ title: documents.title, role: documents.role, corpus: documents.corpus })
          .from(documents)
          .where(eq(documents.id, documentId));
  return {
    label: 'המסמך',
    body:
      row === undefined
        ? missing
        : html`<span>${row.title}</span> <span class="meta">${row.role === null ? labelOf(corpusLabels, row.corpus) : labelOf(documentRoleLabels, row.role)}</span>`,
  };
}

async function missionItem(db: Db, id: unknown): Promise<MeaningItem & { title: string | null }> {
  const missionId = str(id);
  const [row] =
    missionId === null
      ? []
      : await db.select({ title: haiMissions.title }).from(haiMissions).where(eq(haiMissions.id, missionId));
  return {
    label: 'המשימה',
    body: row === undefined ? missing : html`<span>${row.title}</span>`,
    title: row?.title ?? null,
  };
}

async function projectItem(db: Db, id: unknown): Promise<MeaningItem> {
  const projectId = str(id);
  const [row] =
    projectId === null
      ? []
      : await db.select({ title: haiProjects.title }).from(haiProjects).where(eq(haiProjects.id, projectId));
  return {
    label: 'הפרויקט',
    body: html`<span>${row?.title ?? projectId ?? '—'}</span>`,
  };
}

/** The file's bytes as the ingestion will decode them; null when they are not base64 (the tool refuses those). */
const decoded = (b64: string): Uint8Array | null => {
  try {
    return contentBytes({ content_base64: b64 });
  } catch {
    return null;
  }
};

/** A file an agent sends, summarised: name, size, type, and for a Word file its blocks and the chair's marks. */
export async function fileItems(args: Args): Promise<MeaningItem[]> {
  const b64 = str(args.content_base64);
  if (b64 === null) return [];
  const bytes = decoded(b64);
  const name = str(args.filename) ?? 'ללא שם';
  if (bytes === null) return [{ label: 'הקובץ', body: html`<span>${name} · הקובץ אינו קריא</span>` }];
  const head = new TextDecoder().decode(bytes.subarray(0, 5));
  const type = isZip(bytes) ? 'מסמך Word' : head === '%PDF-' ? 'PDF' : 'טקסט';
  const items: MeaningItem[] = [
    {
      label: 'הקובץ',
      body: html`<span>${name}</span> <span class="meta">${type} · ${sizeLabel(bytes.length)}</span>`,
    },
  ];
  if (!isZip(bytes)) {
    if (type === 'טקסט') items.push({ label: 'תוכן הקובץ', body: readable(new TextDecoder().decode(bytes)) });
    return items;
  }
  const doc = await readDocx(bytes).catch(() => null);
  if (doc === null) {
    items.push({ label: 'תוכן הקובץ', body: html`<span class="empty">לא ניתן לקרוא את המסמך</span>` });
    return items;
  }
  // The export's anchors name each paragraph's block; paragraphs the chair added belong to none.
  const blocks: { kind: string; paragraphs: number }[] = [];
  for (const p of doc.paragraphs) {
    const kind = p.anchor?.tag?.kind;
    if (kind === undefined || p.accepted.trim() === '') continue;
    const last = blocks.at(-1);
    if (last !== undefined && last.kind === kind) last.paragraphs++;
    else blocks.push({ kind, paragraphs: 1 });
  }
  const changes = doc.paragraphs.reduce((n, p) => n + p.changes.length, 0);
  items.push({
    label: 'חלקי ההחלטה בקובץ',
    body:
      blocks.length === 0
        ? html`<span class="meta">הקובץ אינו מסומן בחלקי הטיוטה (${doc.paragraphs.length} פסקאות)</span>`
        : html`<ol class="blocks">${blocks.map((b) => html`<li>${labelOf(blockKindLabels, b.kind)} · ${b.paragraphs} פסקאות</li>`)}</ol>`,
  });
  items.push({
    label: 'סימוני עריכה',
    body: html`<span>${changes} שינויים במעקב · ${doc.comments.length} הערות</span>`,
  });
  items.push({ label: 'הנוסח (כל השינויים מתקבלים)', body: readable(acceptedText(doc)) });
  return items;
}

/** The renderer of each owner-gated tool. */
export const meaningRenderers: Readonly<Record<string, MeaningRenderer>> = {
  async case_delete(db, args) {
    const c = await caseItem(db, args.case_id);
    return {
      effect: `התיק ${c.name ?? ''} וכל מסמכיו לא יהיו עוד נגישים לסוכנים (הנתונים נשמרים לביקורת).`,
      items: [c],
    };
  },
  async direction_approve(db, args) {
    const d = await directionItems(db, args.direction_id);
    return {
      effect: `ההכוונה «${d.title ?? ''}» תהיה ההכוונה המאושרת של התיק, והכוונה שאושרה לפניה תסומן כמוחלפת.`,
      items: d.items,
    };
  },
  async halacha_review(db, args) {
    const decision = str(args.decision);
    const items = await holdingItems(db, args.halacha_id);
    if (decision === 'edit' && str(args.text) !== null)
      items.push({ label: 'הנוסח המתוקן', body: readable(str(args.text) ?? '') });
    if (str(args.topic) !== null) items.push({ label: 'נושא', body: html`<span>${str(args.topic)}</span>` });
    const effect =
      decision === 'reject'
        ? 'ההלכה תידחה ולא תוגש עוד לסוכנים כהלכה.'
        : decision === 'edit'
          ? 'ההלכה תאושר בנוסח המתוקן, והנוסח שחולץ יישמר לצדו.'
          : 'ההלכה תאושר ותוגש לסוכנים כהלכה מאושרת.';
    return { effect, items };
  },
  async outcome_set(db, args) {
    const c = await caseItem(db, args.case_id);
    const outcome = labelOf(outcomeLabels, str(args.outcome));
    return {
      effect: `תוצאת התיק ${c.name ?? ''} תיקבע: ${outcome}.`,
      items: [c, { label: 'התוצאה', body: html`<strong>${outcome}</strong>` }],
    };
  },
  async final_version_ingest(db, args) {
    const c = await caseItem(db, args.case_id);
    const text = str(args.text);
    return {
      effect: `הנוסח החתום ייקלט כנוסח הסופי של ${c.name ?? 'התיק'}, התיק יסומן כהוחלט וההחלטה תצורף להחלטות הוועדה.`,
      items: [
        c,
        ...(await fileItems(args)),
        ...(text === null ? [] : [{ label: 'הנוסח הסופי', body: readable(text) }]),
      ],
    };
  },
  async hai_close_mission(db, args) {
    const m = await missionItem(db, args.mission_id);
    const summary = str(args.summary);
    return {
      effect: `המשימה «${m.title ?? ''}» תיסגר כנטושה, וכל הרשאות העבודה שלה יסתיימו.`,
      items: [m, ...(summary === null ? [] : [{ label: 'הסיכום', body: readable(summary) }])],
    };
  },
  async hai_recontract(db, args) {
    const m = await missionItem(db, args.mission_id);
    const list = (v: unknown) =>
      Array.isArray(v) && v.length > 0
        ? html`<ul>${v.map((x) => html`<li>${String(x)}</li>`)}</ul>`
        : html`<span class="empty">—</span>`;
    const criteria = Array.isArray(args.criteria)
      ? (args.criteria as { description?: unknown; verification?: unknown }[])
      : [];
    return {
      effect: `חוזה המשימה «${m.title ?? ''}» יוחלף בגרסה חדשה, והרשאות העבודה הקיימות יחייבו אישור מחדש.`,
      items: [
        m,
        { label: 'המטרה', body: readable(str(args.goal) ?? '') },
        { label: 'בתחום', body: list(args.in_scope) },
        { label: 'מחוץ לתחום', body: list(args.out_of_scope) },
        {
          label: 'תנאי הקבלה',
          body: html`<ul>${criteria.map((c) => html`<li>${String(c.description ?? '')} <span class="meta">(${String(c.verification ?? '')})</span></li>`)}</ul>`,
        },
      ],
    };
  },
  async hai_bind_project(db, args) {
    const title = str(args.title);
    const items: MeaningItem[] = [
      await projectItem(db, args.project_id),
      { label: 'ההתקן', body: html`<span class="ltr">${str(args.device_id) ?? '—'}</span>` },
      { label: 'מיקום בהתקן', body: html`<span class="ltr">${str(args.mount_path) ?? '—'}</span>` },
    ];
    if (title !== null) items.push({ label: 'שם הפרויקט', body: html`<span>${title}</span>` });
    if (str(args.case_id) !== null) items.push(await caseItem(db, args.case_id));
    return { effect: 'הפרויקט יקושר להתקן, והסוכנים יוכלו לעבוד עליו ממנו.', items };
  },
  async hai_accept_next_step(db, args) {
    const projectId = str(args.project_id);
    const version = typeof args.proposal_version === 'number' ? args.proposal_version : null;
    const [proposal] =
      projectId === null || version === null
        ? []
        : await db
            .select({ content: haiArtifacts.content })
            .from(haiArtifacts)
            .where(
              and(
                eq(haiArtifacts.projectId, projectId),
                eq(haiArtifacts.name, NEXT_STEP_PROPOSED),
                eq(haiArtifacts.version, version),
              ),
            );
    return {
      effect: 'ההצעה תהפוך לצעד הבא המחייב של הפרויקט.',
      items: [
        await projectItem(db, args.project_id),
        { label: 'הצעד המוצע', body: proposal === undefined ? missing : readable(proposal.content) },
      ],
    };
  },
};

/** A tool this module does not know (a fixture, a tool added without a renderer): its arguments, expert view only. */
const unknownMeaning = async (db: Db, args: Args): Promise<Meaning> => {
  const items: MeaningItem[] = [];
  if (str(args.case_id) !== null) items.push(await caseItem(db, args.case_id));
  if (str(args.document_id) !== null) items.push(await documentItem(db, args.document_id));
  return { effect: 'הפעולה תבוצע כפי שהסוכן ביקש (פירוט הקריאה בתצוגת המומחה).', items };
};

export const meaningOf = (db: Db, row: Pick<OwnerApprovalRow, 'tool' | 'args'>): Promise<Meaning> =>
  (meaningRenderers[row.tool] ?? unknownMeaning)(db, row.args);

/** The raw arguments for the expert view: files by their size, never their base64. */
export function expertArgs(args: Args): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) =>
      k === 'content_base64' && typeof v === 'string' ? [k, `<${v.length} תווי base64>`] : [k, v],
    ),
  );
}
