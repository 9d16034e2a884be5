// The console's first page: what waits for the owner, and where to look.
import { html } from 'hono/html';
import type { Html } from '../layout.ts';

export const homeBody = (counts: { pending: number; activeMissions: number; cases: number }): Html =>
  html`<div class="grid two">
<a class="card ${counts.pending > 0 ? 'pending' : ''}" href="/console/approvals"><h2>בקשות אישור</h2><p>${counts.pending === 0 ? 'אין בקשות ממתינות.' : `${counts.pending} ממתינות להחלטתך.`}</p></a>
<a class="card" href="/console/missions"><h2>משימות</h2><p>${counts.activeMissions === 0 ? 'אין משימות פעילות.' : `משימות פעילות: ${counts.activeMissions}.`}</p></a>
<a class="card" href="/console/cases"><h2>תיקים</h2><p>${counts.cases === 0 ? 'אין תיקים.' : `תיקים בעבודה: ${counts.cases}.`}</p></a>
</div>`;
