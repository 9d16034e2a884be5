// claim_record, deciding on claims: confirm, reword, reject, merge, each kept once per (claim, action,
// content) beside the original; a repeat changes nothing; the same decision with another reason is
// idempotency_key_reuse; the states that refuse a decision; claims of other cases.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { claimActions } from '../../../src/db/schema/analysis.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { caseWithClaims, nth, type Recorded, recordAs } from './_claims.ts';

forEachStack('claim_record: decisions', DB_STACKS, (server) => {
  const record = (args: Record<string, unknown>) => recordAs(server(), args);

  it('confirms, rewords, rejects and merges, keeping the original text and offsets', async () => {
    const { caseId, claims } = await caseWithClaims(server());
    const [a, b, c, d, e] = [0, 1, 2, 3, 4].map((i) => nth(claims, i));
    if (!a || !b || !c || !d || !e) throw new Error('claims');
    const confirmed = expectOk<Recorded>(
      await record({ case_id: caseId, action: 'confirm', claim_id: a.id }),
    );
    expect(confirmed.claim).toMatchObject({ status: 'confirmed', decision: { by: 'analyst', reason: null } });
    expect(confirmed.claim.source).toEqual(a.source);
    const reworded = expectOk<Recorded>(
      await record({
        case_id: caseId,
        action: 'reword',
        claim_id: b.id,
        text: 'יש להחיל מקדם דחייה',
        rationale: 'תמצות',
      }),
    );
    expect(reworded.claim).toMatchObject({ status: 'confirmed', wording: 'יש להחיל מקדם דחייה' });
    expect(reworded.claim.source.text).toBe(b.source.text);
    const rejected = expectOk<Recorded>(
      await record({ case_id: caseId, action: 'reject', claim_id: c.id, rationale: 'אינה טענה' }),
    );
    expect(rejected.claim).toMatchObject({ status: 'rejected', decision: { reason: 'אינה טענה' } });
    // A rejected claim can be confirmed after all (the agent changed its mind).
    expect(
      expectOk<Recorded>(
        await record({ case_id: caseId, action: 'confirm', claim_id: c.id, rationale: 'בכל זאת' }),
      ).claim.status,
    ).toBe('confirmed');
    const merged = expectOk<Recorded>(
      await record({
        case_id: caseId,
        action: 'merge',
        claim_id: e.id,
        into_claim_id: d.id,
        rationale: 'כפילות',
      }),
    );
    expect(merged.claim).toMatchObject({ status: 'merged', merged_into: d.id });
    const actions = await server().db.db.select().from(claimActions).where(eq(claimActions.claimId, c.id));
    expect(actions.map((x) => x.action).sort()).toEqual(['confirm', 'reject']);
  });

  it('a decision is recorded once: a repeat changes nothing, another reason is idempotency_key_reuse', async () => {
    const db = server().db.db;
    const { caseId, claims } = await caseWithClaims(server());
    const a = nth(claims, 0);
    const args = { case_id: caseId, action: 'reword', claim_id: a.id, text: 'ניסוח', rationale: 'קיצור' };
    const first = expectOk<Recorded>(await record(args));
    expect(first.created).toBe(true);
    await db.delete(kvEntries);
    const again = await record(args);
    expect(again.message).toMatch(/Already reworded/);
    expect(expectOk<Recorded>(again)).toMatchObject({ created: false, claim: { wording: 'ניסוח' } });
    await db.delete(kvEntries);
    expect(errorCode(await record({ ...args, rationale: 'אחר' }))).toBe('idempotency_key_reuse');
    // Another wording is another decision.
    const second = expectOk<Recorded>(await record({ ...args, text: 'ניסוח שני' }));
    expect(second).toMatchObject({ created: true, claim: { wording: 'ניסוח שני' } });
    expect(await db.select().from(claimActions).where(eq(claimActions.claimId, a.id))).toHaveLength(2);
  });

  it('refuses decisions the claim’s state or the arguments do not allow', async () => {
    const { caseId, claims } = await caseWithClaims(server(), { names: ['appeal', 'response'] });
    // The two documents' jobs may run in either order: pick the appellants' claims by party.
    const appellants = claims.filter((x) => x.party === 'appellant');
    const [a, b, c] = [0, 1, 2].map((i) => nth(appellants, i));
    const respondents = claims.find((x) => x.party === 'respondent');
    if (!a || !b || !c || !respondents) throw new Error('claims');
    expectOk(
      await record({
        case_id: caseId,
        action: 'merge',
        claim_id: a.id,
        into_claim_id: b.id,
        rationale: 'כפילות',
      }),
    );
    const onMerged = await record({ case_id: caseId, action: 'confirm', claim_id: a.id });
    expect(errorCode(onMerged)).toBe('invalid_state');
    expect(onMerged.ok ? null : onMerged.error.details).toMatchObject({ merged_into: b.id });
    expectOk(await record({ case_id: caseId, action: 'reject', claim_id: c.id, rationale: 'לא טענה' }));
    expect(
      errorCode(
        await record({
          case_id: caseId,
          action: 'merge',
          claim_id: b.id,
          into_claim_id: c.id,
          rationale: 'x',
        }),
      ),
    ).toBe('invalid_state');
    expect(
      errorCode(
        await record({
          case_id: caseId,
          action: 'merge',
          claim_id: b.id,
          into_claim_id: b.id,
          rationale: 'x',
        }),
      ),
    ).toBe('invalid_args');
    expect(
      errorCode(
        await record({
          case_id: caseId,
          action: 'merge',
          claim_id: b.id,
          into_claim_id: respondents.id,
          rationale: 'x',
        }),
      ),
    ).toBe('invalid_args');
    expect(errorCode(await record({ case_id: caseId, action: 'reject', claim_id: b.id }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(await record({ case_id: caseId, action: 'reword', claim_id: b.id, rationale: 'x' })),
    ).toBe('invalid_args');
    expect(errorCode(await record({ case_id: caseId, action: 'confirm' }))).toBe('invalid_args');
    expect(errorCode(await record({ case_id: caseId, action: 'approve', claim_id: b.id }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(await record({ case_id: caseId, action: 'confirm', claim_id: crypto.randomUUID() })),
    ).toBe('not_found');
    const other = await caseWithClaims(server());
    expect(
      errorCode(await record({ case_id: caseId, action: 'confirm', claim_id: nth(other.claims, 0).id })),
    ).toBe('not_found');
    expect(
      errorCode(
        await record({
          case_id: caseId,
          action: 'merge',
          claim_id: b.id,
          into_claim_id: nth(other.claims, 1).id,
          rationale: 'x',
        }),
      ),
    ).toBe('not_found');
  });
});
