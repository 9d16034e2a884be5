import type { Db } from '../db/types.ts';
import { scheduleCandidates } from './candidates.ts';
import { loadLiveCase } from './live.ts';
import { datesView, deadlineOf, loadDates, loadPanel, localDay, panelView } from './schedule.ts';
import { caseView } from './views.ts';

/**
 * One case file as `case_get` answers it: the case, its dates, panel, deadline warning and the dates or names
 * its documents suggest, with the one-line message. The bench's raw floor runs the same reads.
 */
export async function readCaseFile(db: Db, caseId: string, now: Date) {
  const c = await loadLiveCase(db, caseId);
  const dates = datesView(await loadDates(db, c.id));
  const panel = panelView(await loadPanel(db, c.id));
  const deadline = deadlineOf(
    dates.decision_due_date,
    localDay(now),
    c.status === 'decided' || c.status === 'archived',
  );
  const candidates = await scheduleCandidates(db, c.id, dates, panel);
  const message = [
    `Case ${c.caseNumber}`,
    ...(deadline?.warning ? [deadline.warning] : []),
    ...(candidates.length > 0 ? [`${candidates.length} candidate date(s)/name(s) from the documents`] : []),
  ].join('; ');
  return { data: { case: caseView(c), dates, panel, deadline, candidates }, message };
}
