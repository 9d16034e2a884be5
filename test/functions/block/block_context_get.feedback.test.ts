// block_context_get serves the chair's feedback: remarks on this kind of block and on the whole decision, from
// this case and others (this case's first, then the newest), never remarks on other kinds of block nor about
// a deleted case.
import { expect, it } from 'vitest';
import { DB_STACKS, deleteCase, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { expectOk } from '../../harness/server.ts';

interface Context {
  items: { section: string; id: string; title: string | null; text: string; source: unknown }[];
  sections: { section: string; items: number }[];
  not_available: string[];
}

forEachStack('block_context_get: the chair’s feedback', DB_STACKS, (server) => {
  it('serves the remarks on the kind of block and on the whole, this case’s first', async () => {
    const s = server();
    const [mine, other, gone] = [await seedCase(s.db.db), await seedCase(s.db.db), await seedCase(s.db.db)];
    const tag = crypto.randomUUID().slice(0, 8);
    const record = async (args: Record<string, unknown>) =>
      expectOk<{ feedback: { id: string } }>(
        await s.call('ceo', 'feedback_record', { ...args, text: `${tag} ${args.text}` }),
      ).feedback.id;
    const general = await record({ block_kind: 'discussion', kind: 'style', text: 'לקצר את הדיון' });
    const whole = await record({ kind: 'structure', text: 'כותרות לכל חלק' });
    const elsewhere = await record({
      case_id: other,
      block_kind: 'discussion',
      kind: 'citation',
      text: 'ציטוט מלא',
    });
    const here = await record({
      case_id: mine,
      block_kind: 'discussion',
      kind: 'substance',
      text: 'להכריע בכל טענה',
    });
    const otherKind = await record({
      case_id: mine,
      block_kind: 'outcome',
      kind: 'substance',
      text: 'סוף דבר קצר',
    });
    const deleted = await record({ case_id: gone, block_kind: 'discussion', kind: 'style', text: 'נמחק' });
    await deleteCase(s.db.db, gone);
    const d = expectOk<Context>(
      await s.call('writer', 'block_context_get', { case_id: mine, block: 'discussion', limit: 200 }),
    );
    const feedback = d.items.filter((i) => i.section === 'feedback' && i.text.startsWith(tag));
    expect(feedback.map((f) => f.id)).toEqual([here, elsewhere, whole, general]);
    expect(feedback[0]).toMatchObject({ title: 'substance · this case', source: null });
    expect(feedback[2]?.title).toBe('structure · the whole decision');
    const ids = feedback.map((f) => f.id);
    expect(ids).not.toContain(otherKind);
    expect(ids).not.toContain(deleted);
    expect(d.sections.map((x) => x.section)).toContain('feedback');
    expect(d.not_available).not.toContain('feedback');
    const outcome = expectOk<Context>(
      await s.call('writer', 'block_context_get', { case_id: mine, block: 'outcome', limit: 200 }),
    );
    expect(
      outcome.items.filter((i) => i.section === 'feedback' && i.text.startsWith(tag)).map((f) => f.id),
    ).toEqual([otherKind, whole]);
  });
});
