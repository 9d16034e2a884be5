// argument_aggregate: a grouping stored as the next version in one transaction; the latest grouping again is
// that version (durably, without the key-value store); the claims left out; the refusals (a claim twice, a
// rejected or merged one, one of another case); a deleted case; a re-run of the extractor keeps the map;
// 20 identical calls at once; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { argument_aggregate } from '../../../functions/argument/argument_aggregate.ts';
import { claimExtractor } from '../../../src/analysis/extractors.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { argumentClaims, argumentMaps } from '../../../src/db/schema/analysis.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  tableCounts,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { rerun } from '../../harness/rerun.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { caseWithClaims, nth, recordAs } from '../claim/_claims.ts';

type Data = ToolData<typeof argument_aggregate>;

forEachStack('argument_aggregate', DB_STACKS, (server) => {
  const aggregate = (args: Record<string, unknown>) => server().call('analyst', 'argument_aggregate', args);

  it('stores versions: a new grouping is the next one, the latest again is itself, an older one comes back as new', async () => {
    const db = server().db.db;
    const { caseId, docs, claims } = await caseWithClaims(server());
    const [c4, c5, c6, c7] = [0, 1, 2, 3].map((i) => nth(claims, i).id);
    const first = [
      { title: 'המועד הקובע', party: 'appellant', claim_ids: [c4, c5], summary: 'השמאי לא החיל את התוספת' },
      { title: 'ניכוי מס השבח', party: 'appellant', claim_ids: [c7] },
    ];
    const v1 = await aggregate({ case_id: caseId, arguments: first });
    const d1 = expectOk<Data>(v1);
    expect(d1).toMatchObject({ version: 1, created: true, unassigned_total: claims.length - 3 });
    expect(d1.unassigned.map((u) => u.id)).not.toContain(c4);
    expect(d1.unassigned[0]).toMatchObject({ party: 'appellant', excerpt: expect.any(String) });
    expect(v1.message).toMatch(/version 1/);
    const same = expectOk<Data>(await aggregate({ case_id: caseId, arguments: first }));
    expect(same).toMatchObject({ version: 1, created: false });
    const second = [{ title: 'הכול', party: 'appellant', claim_ids: [c4, c5, c6, c7] }];
    expect(expectOk<Data>(await aggregate({ case_id: caseId, arguments: second }))).toMatchObject({
      version: 2,
      created: true,
    });
    await db.delete(kvEntries);
    expect(expectOk<Data>(await aggregate({ case_id: caseId, arguments: second }))).toMatchObject({
      version: 2,
      created: false,
    });
    expect(expectOk<Data>(await aggregate({ case_id: caseId, arguments: first }))).toMatchObject({
      version: 3,
      created: true,
    });
    const maps = await db.select().from(argumentMaps).where(eq(argumentMaps.caseId, caseId));
    expect(maps.map((m) => m.version).sort()).toEqual([1, 2, 3]);
    // A re-run of the extractor leaves the map and the claims it uses as they are.
    await rerun(db, claimExtractor, docs.appeal);
    const links = await db
      .select()
      .from(argumentClaims)
      .where(eq(argumentClaims.mapId, maps[0]?.id ?? ''));
    expect(links.map((l) => l.claimId).sort()).toEqual([c4, c5, c7].sort());
  });

  it('refuses a claim twice, a rejected or merged claim, and claims of other cases; nothing is written', async () => {
    const db = server().db.db;
    const { caseId, claims } = await caseWithClaims(server());
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => nth(claims, i).id);
    expectOk(
      await recordAs(server(), { case_id: caseId, action: 'reject', claim_id: c, rationale: 'לא טענה' }),
    );
    expectOk(
      await recordAs(server(), {
        case_id: caseId,
        action: 'merge',
        claim_id: d,
        into_claim_id: a,
        rationale: 'כפילות',
      }),
    );
    const before = await tableCounts(db);
    const twice = await aggregate({
      case_id: caseId,
      arguments: [
        { title: 'א', party: 'appellant', claim_ids: [a, b] },
        { title: 'ב', party: 'appellant', claim_ids: [b] },
      ],
    });
    expect(errorCode(twice)).toBe('invalid_args');
    expect(twice.ok ? null : twice.error.details?.issues).toEqual([
      { path: 'arguments.1.claim_ids.0', message: `claim ${b} is already in arguments.0.claim_ids.1` },
    ]);
    const closed = await aggregate({
      case_id: caseId,
      arguments: [{ title: 'א', party: 'appellant', claim_ids: [a, c, d] }],
    });
    expect(errorCode(closed)).toBe('invalid_state');
    expect(closed.ok ? null : closed.error.details?.claims).toHaveLength(2);
    const other = await caseWithClaims(server());
    expect(
      errorCode(
        await aggregate({
          case_id: caseId,
          arguments: [{ title: 'א', party: 'appellant', claim_ids: [a, nth(other.claims, 0).id] }],
        }),
      ),
    ).toBe('not_found');
    expect(errorCode(await aggregate({ case_id: caseId, arguments: [] }))).toBe('invalid_args');
    expect(
      errorCode(
        await aggregate({ case_id: caseId, arguments: [{ title: 'א', party: 'appellant', claim_ids: [] }] }),
      ),
    ).toBe('invalid_args');
    expect(
      errorCode(
        await aggregate({
          case_id: crypto.randomUUID(),
          arguments: [{ title: 'א', party: 'appellant', claim_ids: [a] }],
        }),
      ),
    ).toBe('not_found');
    await deleteCase(db, other.caseId);
    expect(
      errorCode(
        await aggregate({
          case_id: other.caseId,
          arguments: [{ title: 'א', party: 'appellant', claim_ids: [nth(other.claims, 0).id] }],
        }),
      ),
    ).toBe('not_found');
    const after = await tableCounts(db);
    expect(after.argument_maps).toBe(before.argument_maps);
    expect(after.argument_claims).toBe(before.argument_claims);
  });
});

forEachStack('argument_aggregate under concurrency', ALL_STACKS, (server) => {
  it('20 identical calls at once: one version', async () => {
    const { caseId, claims } = await caseWithClaims(server());
    const args = {
      case_id: caseId,
      arguments: [{ title: 'הכול', party: 'appellant', claim_ids: claims.map((c) => c.id) }],
    };
    const answers = await twentyAtOnce(server(), 'argument_aggregate', args);
    for (const a of answers) expect(expectOk<Data>(a).version).toBe(1);
    expect(answers.filter((a) => expectOk<Data>(a).created)).toHaveLength(1);
    expect(
      await server().db.db.select().from(argumentMaps).where(eq(argumentMaps.caseId, caseId)),
    ).toHaveLength(1);
  });
});

deniedTo('argument_aggregate', 'writer', (c) => ({
  case_id: c.caseId,
  arguments: [{ title: 'א', party: 'appellant', claim_ids: [crypto.randomUUID()] }],
}));
