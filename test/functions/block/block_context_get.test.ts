// block_context_get: per kind of block, the case's details, the block's current text and version, and the
// items it rests on with provenance (confirmed claims of the party; arguments with their claims, references,
// appraisers' facts and conflicts); paged; the library's sections in their own test; refusals; a deleted case; no grant.
import { expect, it } from 'vitest';
import {
  DB_STACKS,
  deleteCase,
  deniedTo,
  extractCase,
  forEachStack,
  seedCaseFile,
} from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

interface Item {
  section: string;
  id: string;
  title: string | null;
  text: string;
  party: string | null;
  claim_ids: string[];
  source: { document_id: string; page: number; text: string } | null;
}
interface Context {
  items: Item[];
  next_cursor: string | null;
  case: { id: string; case_number: string };
  block: { key: string; kind: string; version: number | null; text: string | null };
  sections: { section: string; items: number }[];
  not_available: string[];
}

forEachStack('block_context_get', DB_STACKS, (server) => {
  it('gives each kind of block what it rests on, with provenance', async () => {
    const s = server();
    const { caseId } = await seedCaseFile(s.db.db);
    await extractCase(s, caseId);
    const claims = expectOk<{ items: { id: string; party: string }[] }>(
      await s.call('analyst', 'claim_list', { case_id: caseId, limit: 200 }),
    ).items;
    const appellant = claims.filter((c) => c.party === 'appellant').map((c) => c.id);
    const respondent = claims.filter((c) => c.party === 'respondent').map((c) => c.id);
    expect(appellant.length).toBeGreaterThan(1);
    expect(respondent.length).toBeGreaterThan(0);
    const confirmed = [appellant[0], appellant[1]] as string[];
    for (const id of confirmed)
      expectOk(await s.call('analyst', 'claim_record', { case_id: caseId, action: 'confirm', claim_id: id }));
    expectOk(
      await s.call('analyst', 'argument_aggregate', {
        case_id: caseId,
        arguments: [
          { title: 'המועד הקובע', party: 'appellant', claim_ids: confirmed },
          { title: 'תשובת הוועדה', party: 'respondent', claim_ids: [respondent[0]] },
        ],
      }),
    );
    const context = (block: string, extra: Record<string, unknown> = {}) =>
      s.call('writer', 'block_context_get', { case_id: caseId, block, limit: 200, ...extra });

    // Claims blocks: only that party's confirmed claims, each with where it is written.
    const ac = expectOk<Context>(await context('appellant_claims'));
    expect(ac.items.map((i) => i.id).sort()).toEqual([...confirmed].sort());
    expect(ac.items.every((i) => i.section === 'claim' && i.party === 'appellant' && i.source !== null)).toBe(
      true,
    );
    expect(ac.block).toMatchObject({
      key: 'appellant_claims',
      kind: 'appellant_claims',
      version: null,
      text: null,
    });
    expect(ac.case.id).toBe(caseId);
    expect(ac.not_available).toEqual([]);
    const rc = expectOk<Context>(await context('respondent_claims'));
    expect(rc.items).toEqual([]);

    // Discussion: the arguments with their claims, the references, the appraisers' facts and conflicts.
    const d = expectOk<Context>(await context('discussion:date'));
    const sections = Object.fromEntries(d.sections.map((x) => [x.section, x.items]));
    expect(sections.argument).toBe(2);
    expect(sections.claim).toBe(3);
    expect(sections.reference).toBeGreaterThan(0);
    expect(sections.appraisal_fact).toBeGreaterThan(0);
    expect(sections.appraisal_conflict).toBeGreaterThan(0);
    const first = d.items.find((i) => i.section === 'argument');
    expect(first).toMatchObject({ title: 'המועד הקובע', party: 'appellant', claim_ids: confirmed });
    const conflict = d.items.find((i) => i.section === 'appraisal_conflict');
    expect(conflict?.text).toContain('↔');
    expect(d.items.filter((i) => i.section !== 'argument').every((i) => i.source !== null)).toBe(true);

    // A block written: its current text and version; a discussion naming its argument gets only that one.
    const args = d.items.filter((i) => i.section === 'argument');
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [
          {
            kind: 'discussion',
            key: 'discussion:date',
            text: 'דיון במועד הקובע.',
            argument_ids: [args[0]?.id],
          },
        ],
      }),
    );
    const written = expectOk<Context>(await context('discussion:date'));
    expect(written.block).toMatchObject({ version: 1, text: 'דיון במועד הקובע.' });
    expect(written.items.filter((i) => i.section === 'argument').map((i) => i.id)).toEqual([args[0]?.id]);

    // Paged: two pages give the whole list.
    const p1 = expectOk<Context>(await context('discussion:x', { limit: 3 }));
    expect(p1.items).toHaveLength(3);
    const p2 = expectOk<Context>(await context('discussion:x', { limit: 200, cursor: p1.next_cursor }));
    expect([...p1.items, ...p2.items]).toEqual(d.items);
  });

  it('refuses a key that is no block; a deleted case is not_found', async () => {
    const s = server();
    const { caseId } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    const header = expectOk<Context>(
      await s.call('analyst', 'block_context_get', { case_id: caseId, block: 'header' }),
    );
    expect(header.items).toEqual([]);
    expect(header.case.case_number).toMatch(/^ערר/);
    expect(
      errorCode(await s.call('writer', 'block_context_get', { case_id: caseId, block: 'preamble' })),
    ).toBe('invalid_args');
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await s.call('writer', 'block_context_get', { case_id: caseId, block: 'header' }))).toBe(
      'not_found',
    );
  });
});

deniedTo('block_context_get', 'analyst', (c) => ({ case_id: c.caseId, block: 'header' }), true);
