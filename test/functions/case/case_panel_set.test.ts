// case_panel_set: the panel (chair first, titles) and the deciding appraiser set, replaced and cleared;
// archived and deleted cases; bad input; 20 identical calls at once; grants; on PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { case_panel_set } from '../../../functions/case/case_panel_set.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { casePanels } from '../../../src/db/schema/cases.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { caseMaker } from './_case.ts';

type Data = ToolData<typeof case_panel_set>;

const PANEL = [
  { name: 'רות כהן', role: 'member', title: 'חברת הוועדה' },
  { name: 'עו"ד דנה לוי', role: 'chair' },
  { name: 'אבי מזרחי', role: 'member', signs: false },
];

forEachStack('case_panel_set', DB_STACKS, (server, stack) => {
  const create = caseMaker(server, `CP${stack.db[0]}`);
  const set = (args: Record<string, unknown>, agent: 'ceo' | 'analyst' = 'ceo') =>
    server().call(agent, 'case_panel_set', args);
  const stored = async (caseId: string) =>
    server().db.db.select().from(casePanels).where(eq(casePanels.caseId, caseId));

  it('sets the panel, the chair first, with the titles under the signatures; then the appraiser', async () => {
    const c = await create();
    const audit = await auditMark(server().db.db);
    const d = expectOk<Data>(await set({ case_id: c.id, members: PANEL }));
    expect(d).toMatchObject({ case_id: c.id, case_number: c.case_number, changed: ['members'] });
    expect(d.panel.members).toEqual([
      { name: 'עו"ד דנה לוי', role: 'chair', title: 'יו"ר הוועדה', signs: true },
      { name: 'רות כהן', role: 'member', title: 'חברת הוועדה', signs: true },
      { name: 'אבי מזרחי', role: 'member', title: 'חבר הוועדה', signs: false },
    ]);
    expect(d.panel).toMatchObject({ deciding_appraiser: null, updated_by: 'ceo' });
    expect((await audit()).map((r) => [r.tool, r.outcome])).toEqual([['case_panel_set', 'ok']]);
    const a = expectOk<Data>(await set({ case_id: c.id, deciding_appraiser: 'יוסי שמאי' }, 'analyst'));
    expect(a.changed).toEqual(['deciding_appraiser']);
    expect(a.panel.members).toHaveLength(3);
    expect(a.panel).toMatchObject({ deciding_appraiser: 'יוסי שמאי', updated_by: 'analyst' });
    const got = expectOk<{ panel: unknown }>(await server().call('qa', 'case_get', { case_id: c.id }));
    expect(got.panel).toEqual(a.panel);
    // A new panel replaces the old one; clearing the appraiser empties the name only.
    const two = expectOk<Data>(
      await set({
        case_id: c.id,
        members: [{ name: 'משה פרץ', role: 'chair' }],
        clear_deciding_appraiser: true,
      }),
    );
    expect(two.changed).toEqual(['members', 'deciding_appraiser']);
    expect(two.panel.members.map((m) => m.name)).toEqual(['משה פרץ']);
    expect(two.panel.deciding_appraiser).toBeNull();
    expect(await stored(c.id)).toHaveLength(1);
  });

  it('answers not_found for an unknown and a deleted case, and writes nothing', async () => {
    const c = await create();
    await deleteCase(server().db.db, c.id);
    const audit = await auditMark(server().db.db);
    expect(errorCode(await set({ case_id: crypto.randomUUID(), deciding_appraiser: 'יוסי שמאי' }))).toBe(
      'not_found',
    );
    expect(errorCode(await set({ case_id: c.id, members: PANEL }))).toBe('not_found');
    expect(await stored(c.id)).toEqual([]);
    expect((await audit()).map((r) => r.errorCode)).toEqual(['not_found', 'not_found']);
  });

  it('refuses an archived case with invalid_state', async () => {
    const c = await create();
    expectOk(await server().call('ceo', 'case_update', { case_id: c.id, status: 'archived' }));
    const env = await set({ case_id: c.id, members: PANEL });
    expect(errorCode(env)).toBe('invalid_state');
    expect(env.ok ? null : env.error.hint).toMatch(/case_update/);
    expect(await stored(c.id)).toEqual([]);
  });

  it('refuses bad input with invalid_args', async () => {
    const c = await create();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ case_id: c.id }, /give members/],
      [{ case_id: c.id, members: [] }, /members/],
      [{ case_id: c.id, members: [{ name: 'רות כהן', role: 'member' }] }, /exactly one chair \(found 0\)/],
      [
        {
          case_id: c.id,
          members: [
            { name: 'א ב', role: 'chair' },
            { name: 'ג ד', role: 'chair' },
          ],
        },
        /exactly one chair \(found 2\)/,
      ],
      [
        {
          case_id: c.id,
          members: [
            { name: 'א ב', role: 'chair' },
            { name: 'א ב', role: 'member' },
          ],
        },
        /listed twice/,
      ],
      [{ case_id: c.id, members: [{ name: 'א ב', role: 'secretary' }] }, /role/],
      [{ case_id: c.id, deciding_appraiser: 'יוסי', clear_deciding_appraiser: true }, /given and cleared/],
      [{ case_id: c.id, deciding_apraiser: 'יוסי' }, /did you mean "deciding_appraiser"/],
    ];
    for (const [args, mentions] of bad) {
      const env = await set(args);
      expect(errorCode(env), JSON.stringify(args)).toBe('invalid_args');
      expect(env.message, JSON.stringify(args)).toMatch(mentions);
    }
    expect(await stored(c.id)).toEqual([]);
  });

  it('refuses agents without the grant (tool_not_granted)', async () => {
    const c = await create();
    for (const agent of ['researcher', 'writer', 'qa'] as const) {
      const env = await server().call(agent, 'case_panel_set', { case_id: c.id, members: PANEL });
      expect(errorCode(env), agent).toBe('tool_not_granted');
      expect(env.ok ? null : env.error.details).toMatchObject({ granted_to: ['analyst', 'ceo'] });
    }
    expect(await stored(c.id)).toEqual([]);
  });
});

forEachStack('case_panel_set at once', ALL_STACKS, (server, stack) => {
  const create = caseMaker(server, `CPX${stack.db[0]}${stack.kv[0]}`);
  it('20 identical calls settle to one row with the same panel', async () => {
    const c = await create();
    const args = { case_id: c.id, members: PANEL, deciding_appraiser: 'יוסי שמאי' };
    const answers = await twentyAtOnce(server(), 'case_panel_set', args, ['ceo', 'analyst']);
    for (const env of answers) expect(expectOk<Data>(env).panel.members).toHaveLength(3);
    const rows = await server().db.db.select().from(casePanels).where(eq(casePanels.caseId, c.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.decidingAppraiser).toBe('יוסי שמאי');
  });
});
