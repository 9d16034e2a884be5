// The dates that drive a case's work and the panel that decides it (docs/legal.md "Dates, panel and
// deadlines"): what case_dates_set and case_panel_set store, how case_get and workflow_status show them, and
// the warning of a decision due within DUE_SOON_DAYS or past. What the documents suggest is candidates.ts's.

import * as z from 'zod';
import { ToolError } from '../contract/errors.ts';
import { eq } from '../db/orm.ts';
import {
  type CaseDatesRow,
  type CasePanelRow,
  type CaseRow,
  caseDates,
  casePanels,
  type Hearing,
  type PanelMember,
  type PanelRole,
  panelRoles,
} from '../db/schema/cases.ts';
import type { DbOrTx } from '../db/types.ts';
import { isoDate } from '../legal/dates.ts';

/** A decision due within this many days (or already past) is warned of. */
export const DUE_SOON_DAYS = 14;

/** The committee's calendar: "today" is the day in Israel, whatever the server's zone. */
const ZONE = 'Asia/Jerusalem';

/** YYYY-MM-DD of `now` in Israel. */
export function localDay(now: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Whole days from day `a` to day `b` (both YYYY-MM-DD). */
export const daysBetween = (a: string, b: string): number =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** A calendar date as tools take it: YYYY-MM-DD, a day that exists. */
export const dayInput = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((s) => isoDate(Number(s.slice(0, 4)), Number(s.slice(5, 7)), Number(s.slice(8, 10))) === s, {
    message: 'no such day',
  });

const day = z.string().describe('YYYY-MM-DD');

export const deadlineStates = ['passed', 'due_soon', 'later'] as const;
export type DeadlineState = (typeof deadlineStates)[number];

export const deadlineOutput = z
  .object({
    due_date: day,
    days_left: z.int().describe('Negative once passed'),
    state: z.enum(deadlineStates).describe(`due_soon: within ${DUE_SOON_DAYS} days`),
    warning: z.string().nullable().describe('Tell the owner; null if later or decided'),
  })
  .nullable()
  .describe('null: no due date');

export type Deadline = z.output<typeof deadlineOutput>;

/** How near a due date is on the day `today`, and the warning to give (none once the case is `finished`). */
export function deadlineOf(dueDate: string | null, today: string, finished = false): Deadline {
  if (dueDate === null) return null;
  const days = daysBetween(today, dueDate);
  const state: DeadlineState = days < 0 ? 'passed' : days <= DUE_SOON_DAYS ? 'due_soon' : 'later';
  const warning = finished
    ? null
    : state === 'passed'
      ? `The decision was due on ${dueDate}, ${-days} day(s) ago`
      : state === 'due_soon'
        ? days === 0
          ? `The decision is due today (${dueDate})`
          : `The decision is due on ${dueDate}, in ${days} day(s)`
        : null;
  return { due_date: dueDate, days_left: days, state, warning };
}

export const hearingOutput = z.object({
  date: day,
  note: z.string().nullable(),
});

export const datesOutput = z.object({
  filing_date: day.nullable(),
  response_date: day.nullable(),
  hearings: z.array(hearingOutput).max(50),
  decision_due_date: day.nullable(),
  updated_by: z.string().nullable(),
  updated_at: z.iso.datetime().nullable(),
});
export type DatesView = z.output<typeof datesOutput>;

export const PANEL_TITLES: Record<PanelRole, string> = { chair: 'יו"ר הוועדה', member: 'חבר הוועדה' };

export const panelMemberOutput = z.object({
  name: z.string(),
  role: z.enum(panelRoles),
  title: z.string(),
  signs: z.boolean(),
});

export const panelOutput = z.object({
  members: z.array(panelMemberOutput).max(9).describe('Chair first'),
  deciding_appraiser: z.string().nullable().describe('שמאי מכריע'),
  updated_by: z.string().nullable(),
  updated_at: z.iso.datetime().nullable(),
});
export type PanelView = z.output<typeof panelOutput>;

export const datesView = (row: CaseDatesRow | undefined): DatesView => ({
  filing_date: row?.filingDate ?? null,
  response_date: row?.responseDate ?? null,
  hearings: (row?.hearings ?? []).map((h) => ({ date: h.date, note: h.note })),
  decision_due_date: row?.decisionDueDate ?? null,
  updated_by: row?.updatedBy ?? null,
  updated_at: row?.updatedAt.toISOString() ?? null,
});

/** A member's signature title: the one given, else the role's usual title. */
export const memberTitle = (m: PanelMember): string => m.title ?? PANEL_TITLES[m.role];

export const panelView = (row: CasePanelRow | undefined): PanelView => ({
  members: (row?.members ?? []).map((m) => ({
    name: m.name,
    role: m.role,
    title: memberTitle(m),
    signs: m.signs,
  })),
  deciding_appraiser: row?.decidingAppraiser ?? null,
  updated_by: row?.updatedBy ?? null,
  updated_at: row?.updatedAt.toISOString() ?? null,
});

export async function loadDates(db: DbOrTx, caseId: string): Promise<CaseDatesRow | undefined> {
  const [row] = await db.select().from(caseDates).where(eq(caseDates.caseId, caseId));
  return row;
}

export async function loadPanel(db: DbOrTx, caseId: string): Promise<CasePanelRow | undefined> {
  const [row] = await db.select().from(casePanels).where(eq(casePanels.caseId, caseId));
  return row;
}

/** The date fields case_dates_set takes, and the names `clear` takes. */
export const dateFields = ['filing_date', 'response_date', 'decision_due_date', 'hearings'] as const;
export type DateField = (typeof dateFields)[number];

/** The refusal of a change to an archived case, as case_update words it. */
export function refuseArchived(c: CaseRow): void {
  if (c.status !== 'archived') return;
  throw new ToolError('invalid_state', `Case ${c.caseNumber} is archived and read-only`, {
    details: { case_id: c.id, status: c.status },
    hint: 'Set status back to "decided" with case_update (with the owner’s agreement) before changing its dates or panel.',
  });
}

export interface DatesChange {
  filing_date?: string | undefined;
  response_date?: string | undefined;
  decision_due_date?: string | undefined;
  hearings?: { date: string; note?: string | undefined }[] | undefined;
  clear?: readonly DateField[] | undefined;
}

/** Sets the given dates (and clears the named ones) in one upsert; the others stay as they are. */
export async function setDates(
  db: DbOrTx,
  caseId: string,
  change: DatesChange,
  agent: string,
  now: Date,
): Promise<CaseDatesRow> {
  const cleared = new Set(change.clear ?? []);
  const pick = <T>(field: DateField, v: T | undefined): T | null | undefined =>
    cleared.has(field) ? null : v;
  const hearings =
    change.hearings === undefined
      ? undefined
      : [...change.hearings]
          .map((h): Hearing => ({ date: h.date, note: h.note ?? null }))
          .sort((a, b) => a.date.localeCompare(b.date));
  const set = {
    filingDate: pick('filing_date', change.filing_date),
    responseDate: pick('response_date', change.response_date),
    decisionDueDate: pick('decision_due_date', change.decision_due_date),
    hearings: cleared.has('hearings') ? [] : hearings,
  };
  const defined = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  const rows = await db
    .insert(caseDates)
    .values({ caseId, ...defined, updatedBy: agent, updatedAt: now })
    .onConflictDoUpdate({ target: caseDates.caseId, set: { ...defined, updatedBy: agent, updatedAt: now } })
    .returning();
  const [row] = rows;
  if (row === undefined) throw new Error('case_dates upsert returned no row');
  return row;
}

export interface PanelChange {
  members?:
    | { name: string; role: PanelRole; title?: string | undefined; signs?: boolean | undefined }[]
    | undefined;
  deciding_appraiser?: string | undefined;
  clear_deciding_appraiser?: boolean | undefined;
}

/** Sets the panel (the whole list, the chair first) and/or the deciding appraiser in one upsert. */
export async function setPanel(
  db: DbOrTx,
  caseId: string,
  change: PanelChange,
  agent: string,
  now: Date,
): Promise<CasePanelRow> {
  const members =
    change.members === undefined
      ? undefined
      : [...change.members]
          .map(
            (m): PanelMember => ({
              name: m.name,
              role: m.role,
              title: m.title ?? null,
              signs: m.signs ?? true,
            }),
          )
          // The chair first, the members in the order given (a stable sort).
          .sort((a, b) => (a.role === 'chair' ? 0 : 1) - (b.role === 'chair' ? 0 : 1));
  const decidingAppraiser = change.clear_deciding_appraiser === true ? null : change.deciding_appraiser;
  const set = Object.fromEntries(
    Object.entries({ members, decidingAppraiser }).filter(([, v]) => v !== undefined),
  );
  const rows = await db
    .insert(casePanels)
    .values({ caseId, ...set, updatedBy: agent, updatedAt: now })
    .onConflictDoUpdate({ target: casePanels.caseId, set: { ...set, updatedBy: agent, updatedAt: now } })
    .returning();
  const [row] = rows;
  if (row === undefined) throw new Error('case_panels upsert returned no row');
  return row;
}

/** A signature line of the Word export: the name (null: blank, to sign by hand) and the title under it. */
export interface SignatureLine {
  name: string | null;
  title: string;
}

/** Without a panel, the export leaves lines to sign on under the usual titles: the chair and two members. */
const BLANK_PANEL: readonly SignatureLine[] = [
  { name: null, title: PANEL_TITLES.chair },
  { name: null, title: PANEL_TITLES.member },
  { name: null, title: PANEL_TITLES.member },
];

/** The signature lines of a case: the panel's members who sign (the chair first), else blank lines. */
export function signatureLines(panel: CasePanelRow | undefined): SignatureLine[] {
  const signing = (panel?.members ?? []).filter((m) => m.signs);
  return signing.length === 0
    ? [...BLANK_PANEL]
    : signing.map((m) => ({ name: m.name, title: memberTitle(m) }));
}
