// direction_propose: a direction stored with its canonical outcome and arguments; the same content again is
// the same direction (durably too); outcomes refused with the accepted values; arguments of another case;
// unknown and deleted cases; 20 identical calls at once; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { direction_propose } from '../../../functions/direction/direction_propose.ts';
import { directions } from '../../../src/db/schema/review.ts';
import { ALL_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { caseWithArguments, type Proposed } from './_directions.ts';
import { forgetRequest } from './_forget.ts';

forEachStack('direction_propose', ALL_STACKS, (server) => {
  const call = (args: Record<string, unknown>) => server().call('ceo', 'direction_propose', args);

  it('stores a direction with its canonical outcome; the same content again is the same one', async () => {
    const db = server().db.db;
    const { caseId, argumentIds } = await caseWithArguments(db);
    const args = {
      case_id: caseId,
      title: 'קבלה חלקית: ההקלה מוצדקת בחלקה',
      rationale: 'הקומה הנוספת חורגת; הקווים מותרים',
      outcome: 'קבלה חלקית',
      argument_ids: argumentIds,
    };
    const env = await call(args);
    const first = expectOk<Proposed>(env);
    expect(first).toMatchObject({
      created: true,
      direction: {
        outcome: 'partial_acceptance',
        status: 'proposed',
        proposed_by: 'ceo',
        approved: null,
        superseded_by: null,
      },
    });
    expect(first.direction.argument_ids.sort()).toEqual([...argumentIds].sort());
    expect(env.message).toMatch(/direction_approve/);
    expect(await call(args)).toMatchObject({ ok: true, replayed: true });
    await forgetRequest(server(), 'ceo', direction_propose, args);
    // Durably the same: the outcome in another form and the arguments in another order are the same content.
    const again = expectOk<Proposed>(
      await call({ ...args, outcome: 'partial', argument_ids: [...argumentIds].reverse() }),
    );
    expect(again).toMatchObject({ created: false, direction: { id: first.direction.id } });
    const rows = await db.select().from(directions).where(eq(directions.caseId, caseId));
    expect(rows).toHaveLength(1);
    const other = expectOk<Proposed>(await call({ ...args, outcome: 'rejected', title: 'דחייה' }));
    expect(other).toMatchObject({
      created: true,
      direction: { outcome: 'rejection', argument_ids: argumentIds },
    });
  });

  it('refuses an outcome it does not know, listing the accepted values; betterment levy is no outcome', async () => {
    const { caseId } = await caseWithArguments(server().db.db);
    for (const outcome of ['betterment_levy', 'היטל השבחה', 'won']) {
      const env = await call({ case_id: caseId, title: 't', rationale: 'r', outcome });
      expect(errorCode(env), outcome).toBe('invalid_args');
      const details = env.ok ? {} : (env.error.details ?? {});
      expect(details.accepted).toEqual(
        expect.arrayContaining(['rejection', 'partial_acceptance', 'full_acceptance', 'דחייה', 'accepted']),
      );
      expect(env.ok ? '' : env.error.hint).toMatch(/practice area/);
    }
    expect(await server().db.db.select().from(directions).where(eq(directions.caseId, caseId))).toEqual([]);
  });

  it('refuses arguments of another case, and unknown or deleted cases (not_found)', async () => {
    const db = server().db.db;
    const mine = await caseWithArguments(db);
    const theirs = await caseWithArguments(db);
    const base = { title: 't', rationale: 'r', outcome: 'rejection' };
    const env = await call({
      ...base,
      case_id: mine.caseId,
      argument_ids: [mine.argumentIds[0], theirs.argumentIds[0]],
    });
    expect(errorCode(env)).toBe('not_found');
    expect(env.ok ? {} : env.error.details).toMatchObject({ argument_ids: [theirs.argumentIds[0]] });
    expect(errorCode(await call({ ...base, case_id: crypto.randomUUID() }))).toBe('not_found');
    await deleteCase(db, mine.caseId);
    expect(errorCode(await call({ ...base, case_id: mine.caseId }))).toBe('not_found');
    expect(await db.select().from(directions).where(eq(directions.caseId, mine.caseId))).toEqual([]);
  });

  it('20 identical calls at once store one direction', async () => {
    const db = server().db.db;
    const { caseId } = await caseWithArguments(db);
    const answers = await twentyAtOnce(
      server(),
      'direction_propose',
      { case_id: caseId, title: 'דחייה', rationale: 'אין עילה', outcome: 'rejection' },
      ['ceo'],
    );
    const ids = new Set(answers.map((a) => expectOk<Proposed>(a).direction.id));
    expect(ids.size).toBe(1);
    expect(await db.select().from(directions).where(eq(directions.caseId, caseId))).toHaveLength(1);
  });
});

deniedTo('direction_propose', 'writer', (c) => ({
  case_id: c.caseId,
  title: 't',
  rationale: 'r',
  outcome: 'rejection',
}));
