// OWNER_GATE=approval against the agents: nothing an agent sends opens a gate without the owner's action in
// the console — its own word (owner_ack), another agent's approval, an approval for other arguments or another
// tool, a used approval, a made-up id, the owner's own tool — and racing repeats get one effect.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { tools } from '../../entry/registries.ts';
import { callTool } from '../../src/contract/execute.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { toolContext } from '../harness/context.ts';
import { errorCode, expectOk, startTestServer } from '../harness/server.ts';
import {
  approvalIdOf,
  approvalRow,
  effects,
  fixture_note_write,
  forEachApprovalStack,
  uniqueNote,
} from './_approvals.ts';

const code = errorCode;

forEachApprovalStack('owner gate, approval mode: forgeries', (env) => {
  it('owner_ack: true opens nothing; the refusal says it was ignored and still asks the owner', async () => {
    const { s } = env();
    const note = uniqueNote('ack');
    const refused = await s.call('ceo', 'fixture_note_write', {
      note,
      owner_ack: true,
      reason: 'the owner said yes',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'owner_gate_required', details: { state: 'pending', ignored: ['owner_ack'] } },
    });
    expect(code(await s.call('ceo', 'fixture_note_write', { note, owner_ack: true }))).toBe(
      'owner_gate_required',
    );
    const json = await s.callJson('ceo', 'fixture_note_write', { note, owner_ack: true, reason: 'yes' });
    expect(json.status).toBe(403);
    expect(effects.get(note)).toBeUndefined();
  });

  it('another agent’s approval is unknown to this agent, and stays good for its own', async () => {
    const { s, owner } = env();
    const note = uniqueNote('other-agent');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'ceo asks' }));
    // Pending or approved, the analyst cannot use the ceo's request for the very same arguments.
    expect(code(await s.call('analyst', 'fixture_note_write', { note, approval_id: id }))).toBe('not_found');
    await owner.decide(id, 'approve', 'for the ceo');
    const stolen = await s.call('analyst', 'fixture_note_write', { note, approval_id: id });
    expect(stolen).toMatchObject({ ok: false, error: { code: 'not_found', details: { approval_id: id } } });
    expect(effects.get(note)).toBeUndefined();
    expect(await approvalRow(s, id)).toMatchObject({ state: 'approved' });
    expect(expectOk(await s.call('ceo', 'fixture_note_write', { note, approval_id: id }))).toMatchObject({
      runs: 1,
    });
  });

  it('an approval for other arguments or another tool is approval_mismatch, and is not spent', async () => {
    const { s, owner } = env();
    const note = uniqueNote('args');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, level: 1, reason: 'level 1' }));
    await owner.decide(id, 'approve', 'level 1 only');
    for (const args of [{ note, level: 2 }, { note }, { note: `${note}-x`, level: 1 }]) {
      const refused = await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'approval_mismatch',
          details: {
            approval_id: id,
            approved_tool: 'fixture_note_write',
            approved_arguments: { note, level: 1 },
          },
        },
      });
    }
    const c = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: `ערר ${uniqueNote('mm')}`, title: 'לא למחיקה' }),
    ).case;
    expect(code(await s.call('ceo', 'case_delete', { case_id: c.id, approval_id: id }))).toBe(
      'approval_mismatch',
    );
    expect(effects.get(note)).toBeUndefined();
    expect(
      expectOk(await s.call('ceo', 'fixture_note_write', { level: 1, note, approval_id: id })),
    ).toMatchObject({
      runs: 1,
    });
  });

  it('a used approval opens nothing new, over either route (the same call replays); a made-up id is not_found', async () => {
    const { s, owner } = env();
    const note = uniqueNote('replay');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'once' }));
    await owner.decide(id, 'approve', 'once');
    expectOk(await s.call('ceo', 'fixture_note_write', { note, approval_id: id }));
    expect(await s.call('ceo', 'fixture_note_write', { note, approval_id: id })).toMatchObject({
      ok: true,
      replayed: true,
      data: { runs: 1 },
    });
    const json = await s.callJson('ceo', 'fixture_note_write', { note, approval_id: id });
    expect([json.status, json.body]).toMatchObject([200, { ok: true, replayed: true, data: { runs: 1 } }]);
    expect(code(await s.call('ceo', 'fixture_note_write', { note, approval_id: crypto.randomUUID() }))).toBe(
      'not_found',
    );
    expect(code(await s.call('ceo', 'fixture_note_write', { note, approval_id: 'yes' }))).toBe(
      'invalid_args',
    );
    expect(effects.get(note)).toBe(1);
  });

  it('the owner’s own tool is out of reach: not granted, and refused by the kernel even when granted', async () => {
    const { s } = env();
    const note = uniqueNote('self-approve');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'please' }));
    const self = await s.call('ceo', 'approval_review', {
      approval_id: id,
      decision: 'approve',
      reason: 'me',
    });
    expect(code(self)).toBe('tool_not_granted');
    // A grant slipped past the server's check would still not do it: the kernel wants the owner principal.
    const registry = buildRegistry(tools, { ownerGate: 'approval' });
    const review = registry.get('approval_review');
    if (review === undefined) throw new Error('approval_review is not registered');
    const ctx = toolContext({ db: s.db.db, kv: s.kv });
    const forced = await callTool({
      tool: review,
      args: { approval_id: id, decision: 'approve', reason: 'me' },
      ctx,
      grants: new Set(['approval_review']),
    });
    expect(code(forced)).toBe('tool_not_granted');
    expect(await approvalRow(s, id)).toMatchObject({ state: 'pending' });
  });

  it('twenty concurrent repeats with one approval: one effect; the rest replay it or hear approval_used', async () => {
    const { s, owner } = env();
    const note = uniqueNote('race');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'race' }));
    await owner.decide(id, 'approve', 'once');
    const all = await Promise.all(
      Array.from({ length: 20 }, () => s.call('ceo', 'fixture_note_write', { note, approval_id: id })),
    );
    // One ran; a repeat that came after it finished replays it; one that came while it ran was told to wait.
    expect(all.filter((e) => e.ok && e.replayed !== true)).toHaveLength(1);
    for (const e of all) {
      if (e.ok) expect(e.data).toMatchObject({ runs: 1 });
      else expect(code(e)).toBe('approval_used');
    }
    expect(effects.get(note)).toBe(1);
    expect(await s.call('ceo', 'fixture_note_write', { note, approval_id: id })).toMatchObject({
      replayed: true,
      data: { runs: 1 },
    });
  });

  it('no sequence of agent calls completes a gated call while the owner does nothing', async () => {
    const { s } = env();
    const notes = [uniqueNote('seq-a'), uniqueNote('seq-b')];
    const seen: string[] = [crypto.randomUUID()];
    const call = fc.record({
      agent: fc.constantFrom('ceo' as const, 'analyst' as const),
      note: fc.constantFrom(...notes),
      level: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      ack: fc.boolean(),
      reason: fc.option(fc.constantFrom('the owner agreed', ' '), { nil: undefined }),
      approval: fc.option(fc.nat(), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 8 }), async (calls) => {
        for (const c of calls) {
          const args = {
            note: c.note,
            ...(c.level === undefined ? {} : { level: c.level }),
            ...(c.ack ? { owner_ack: true } : {}),
            ...(c.reason === undefined ? {} : { reason: c.reason }),
            ...(c.approval === undefined ? {} : { approval_id: seen[c.approval % seen.length] }),
          };
          const result = await s.call(c.agent, 'fixture_note_write', args);
          expect(result.ok).toBe(false);
          const id = result.ok ? undefined : result.error.details?.approval_id;
          if (typeof id === 'string' && !seen.includes(id)) seen.push(id);
        }
        for (const note of notes) expect(effects.get(note)).toBeUndefined();
      }),
      { numRuns: 25 },
    );
  });
});

forEachApprovalStack(
  'owner gate, approval mode: racing repeats on Upstash',
  (env) => {
    it('ten concurrent repeats with one approval: one effect', async () => {
      const { s, owner } = env();
      const note = uniqueNote('race-upstash');
      const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'race' }));
      await owner.decide(id, 'approve', 'once');
      const all = await Promise.all(
        Array.from({ length: 10 }, () => s.call('ceo', 'fixture_note_write', { note, approval_id: id })),
      );
      // The others replay the one that ran, or (while it ran) were told to wait.
      expect(all.filter((e) => e.ok && e.replayed !== true)).toHaveLength(1);
      for (const e of all) if (!e.ok) expect(e.error.code).toBe('approval_used');
      expect(effects.get(note)).toBe(1);
    });
  },
  [{ db: 'postgres', kv: 'upstash' }],
);

it('a tool without a gate costs no approval query in approval mode', async () => {
  const statements: string[] = [];
  const s = await startTestServer({
    env: { OWNER_GATE: 'approval' },
    tools: [...tools, fixture_note_write],
    grants: { ceo: ['fixture_note_write'] },
    onQuery: (sql) => statements.push(sql),
  });
  try {
    const c = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: 'ערר 1/99', title: 'בלי שער' }),
    ).case;
    expectOk(await s.call('ceo', 'case_get', { case_id: c.id }));
    expectOk(await s.call('ceo', 'fixture_note_write', { note: uniqueNote('nogate'), gated: false }));
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((q) => q.includes('owner_approvals'))).toEqual([]);
    // …while a gated call does consult it.
    await s.call('ceo', 'fixture_note_write', { note: uniqueNote('gate'), reason: 'why' });
    expect(statements.some((q) => q.includes('owner_approvals'))).toBe(true);
  } finally {
    await s.close();
  }
});
