// outcome_set: the canonical outcomes, their Hebrew labels and the legacy values, mapped; anything else
// refused with the accepted values; owner-gated; the approved direction's outcome beside it; unknown and
// deleted cases; 20 identical calls at once change the case once; no grant.

import { expect, it } from 'vitest';
import type { outcome_set } from '../../../functions/outcome/outcome_set.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { ALL_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { caseRow } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { approve, caseWithArguments, propose } from '../direction/_directions.ts';

type Data = ToolData<typeof outcome_set>;

forEachStack('outcome_set', ALL_STACKS, (server) => {
  const set = (caseId: string, outcome: unknown, extra: Record<string, unknown> = {}) =>
    server().call('ceo', 'outcome_set', {
      case_id: caseId,
      outcome,
      owner_ack: true,
      reason: 'הוחלט',
      ...extra,
    });

  it('maps every accepted value to its canonical outcome', async () => {
    const caseId = await seedCase(server().db.db);
    const cases: [string, string][] = [
      ['rejection', 'rejection'],
      ['partial_acceptance', 'partial_acceptance'],
      ['full_acceptance', 'full_acceptance'],
      ['דחייה', 'rejection'],
      ['קבלה חלקית', 'partial_acceptance'],
      ['קבלה מלאה', 'full_acceptance'],
      ['rejected', 'rejection'],
      ['partial', 'partial_acceptance'],
      ['accepted', 'full_acceptance'],
      ['partially_accepted', 'partial_acceptance'],
      ['הערר נדחה', 'rejection'],
      ['התקבל בחלקו', 'partial_acceptance'],
      ['הערר התקבל', 'full_acceptance'],
      [' Full Acceptance ', 'full_acceptance'],
    ];
    let previous: string | null = null;
    for (const [given, canonical] of cases) {
      const d = expectOk<Data>(await set(caseId, given));
      expect(d, given).toMatchObject({ outcome: canonical, previous, changed: previous !== canonical });
      expect((await caseRow(server().db.db, caseId))?.outcome).toBe(canonical);
      previous = canonical;
    }
    expect((await set(caseId, 'rejection')).message).toMatch(/דחייה/);
  });

  it('refuses other values with invalid_args listing the accepted ones, and changes nothing', async () => {
    const caseId = await seedCase(server().db.db);
    for (const outcome of ['betterment_levy', 'היטל השבחה', 'dismissed', 'rejection!']) {
      const env = await set(caseId, outcome);
      expect(errorCode(env), outcome).toBe('invalid_args');
      // The three values, their Hebrew labels, and the legacy words (English and Hebrew) mapped on input.
      expect(env.ok ? [] : env.error.details?.accepted).toHaveLength(16);
      expect(env.ok ? [] : env.error.details?.accepted).toEqual(
        expect.arrayContaining(['full_acceptance', 'קבלה חלקית', 'partially_accepted', 'הערר נדחה']),
      );
    }
    expect(errorCode(await set(caseId, 1))).toBe('invalid_args');
    expect((await caseRow(server().db.db, caseId))?.outcome).toBeNull();
  });

  it('is owner-gated: without the acknowledgement nothing changes', async () => {
    const caseId = await seedCase(server().db.db);
    for (const extra of [{ owner_ack: undefined }, { reason: undefined }, { owner_ack: false }]) {
      expect(errorCode(await set(caseId, 'rejection', extra)), JSON.stringify(extra)).toBe(
        'owner_gate_required',
      );
    }
    expect((await caseRow(server().db.db, caseId))?.outcome).toBeNull();
  });

  it('says when the approved direction leads elsewhere', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const d = await propose(s, caseId, { outcome: 'full_acceptance' });
    expectOk(await approve(s, d.id));
    const env = await set(caseId, 'rejection');
    expect(expectOk<Data>(env).approved_direction_outcome).toBe('full_acceptance');
    expect(env.message).toMatch(/approved direction/);
  });

  it('answers not_found for unknown and deleted cases', async () => {
    const caseId = await seedCase(server().db.db);
    expect(errorCode(await set(crypto.randomUUID(), 'rejection'))).toBe('not_found');
    await deleteCase(server().db.db, caseId);
    expect(errorCode(await set(caseId, 'rejection'))).toBe('not_found');
    expect((await caseRow(server().db.db, caseId))?.outcome).toBeNull();
  });

  it('20 identical calls at once change the case once', async () => {
    const caseId = await seedCase(server().db.db);
    const answers = await twentyAtOnce(
      server(),
      'outcome_set',
      { case_id: caseId, outcome: 'קבלה חלקית', owner_ack: true, reason: 'כן' },
      ['ceo'],
    );
    const data = answers.map((a) => expectOk<Data>(a));
    expect(data.filter((d) => d.changed)).toHaveLength(1);
    expect((await caseRow(server().db.db, caseId))?.outcome).toBe('partial_acceptance');
  });
});

deniedTo('outcome_set', 'writer', (c) => ({
  case_id: c.caseId,
  outcome: 'rejection',
  owner_ack: true,
  reason: 'r',
}));
