// claim_record, adding a claim the rules missed: located by its quote (also across a PDF line break), kept
// confirmed with the agent's wording; the retry layers (a replay, the durable key without the key-value
// store, the same key with other details); the refusals; a deleted case; 20 identical calls at once; no grant.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { claimActions, claims } from '../../../src/db/schema/analysis.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  seedCaseFile,
  tableCounts,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { nth, type Recorded, recordAs } from './_claims.ts';

const QUOTE = 'לקבוע את המועד הקובע כדין';
const addArgs = (caseId: string, documentId: string, over: Record<string, unknown> = {}) => ({
  case_id: caseId,
  action: 'add',
  party: 'appellant',
  text: 'המועד הקובע נקבע שלא כדין',
  document_id: documentId,
  page: 2,
  quote: QUOTE,
  ...over,
});

forEachStack('claim_record: add', DB_STACKS, (server) => {
  const record = (args: Record<string, unknown>) => recordAs(server(), args);

  it('adds a confirmed claim with the agent’s wording, located by its quote', async () => {
    const { caseId, docs } = await seedCaseFile(server().db.db, { names: ['appeal'], format: 'pdf' });
    const wrapped = 'מקדם דחייה ולקבוע את המועד';
    const env = await record(addArgs(caseId, docs.appeal, { rationale: 'חסר ברשימה', quote: wrapped }));
    const { claim, created } = expectOk<Recorded>(env);
    expect(created).toBe(true);
    expect(env.message).toBe('Claim recorded');
    expect(claim).toMatchObject({
      party: 'appellant',
      kind: 'claim',
      status: 'confirmed',
      wording: 'המועד הקובע נקבע שלא כדין',
      decision: { by: 'analyst', reason: 'חסר ברשימה' },
      source: { document_id: docs.appeal, page: 2, extractor_version: 'claim_record' },
    });
    // In the PDF the quote wraps over two lines: it is found across the line break, offsets into the page.
    const pages = await documentPageTexts(server().db.db, docs.appeal);
    expect(pages[1]?.slice(claim.source.start, claim.source.end)).toBe(claim.source.text);
    expect(claim.source.text).toContain('\n');
    expect(claim.source.text.replace(/\s+/g, ' ')).toBe(wrapped);
  });

  it('replays a retry; without the key-value record the natural key returns the claim; other details are refused', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal'] });
    const args = addArgs(caseId, docs.appeal, { kind: 'relief' });
    const first = expectOk<Recorded>(await record(args));
    const again = await record(args);
    expect(again).toMatchObject({ replayed: true });
    expect(expectOk<Recorded>(again)).toEqual(first);
    await db.delete(kvEntries);
    const durable = expectOk<Recorded>(await record(args));
    expect(durable).toMatchObject({ created: false, claim: { id: first.claim.id } });
    // The same party and wording (spelled with niqqud and other spacing) is the same claim.
    await db.delete(kvEntries);
    const spelled = await record({ ...args, text: 'הַמּוֹעֵד  הקובע נקבע שלא כדין' });
    expect(expectOk<Recorded>(spelled).claim.id).toBe(first.claim.id);
    await db.delete(kvEntries);
    const other = await record({ ...args, kind: 'claim' });
    expect(errorCode(other)).toBe('idempotency_key_reuse');
    expect(other.ok ? null : other.error.details).toMatchObject({
      claim_id: first.claim.id,
      different: ['kind'],
    });
    expect(errorCode(await record({ ...args, page: 1, quote: 'רקע' }))).toBe('idempotency_key_reuse');
    const rows = await db
      .select()
      .from(claims)
      .where(and(eq(claims.caseId, caseId), eq(claims.origin, 'recorded')));
    expect(rows).toHaveLength(1);
  });

  it('refuses what cannot be recorded, naming the argument', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal'] });
    const other = await seedCaseFile(db, { names: ['response'] });
    const issues = async (args: Record<string, unknown>) => {
      const env = await record(args);
      expect(errorCode(env)).toBe('invalid_args');
      const found = env.ok ? [] : ((env.error.details?.issues ?? []) as { path: string }[]);
      return found.map((i) => i.path).sort();
    };
    expect(await issues({ case_id: caseId, action: 'add', party: 'appellant' })).toEqual([
      'document_id',
      'page',
      'quote',
      'text',
    ]);
    expect(await issues({ ...addArgs(caseId, docs.appeal), claim_id: crypto.randomUUID() })).toEqual([
      'claim_id',
    ]);
    expect(await issues(addArgs(caseId, docs.appeal, { quote: 'מילים שאינן בעמוד' }))).toEqual(['quote']);
    expect(await issues(addArgs(caseId, docs.appeal, { page: 3 }))).toEqual(['page']);
    expect(await issues(addArgs(caseId, docs.appeal, { text: '!!!' }))).toEqual(['text']);
    expect(await issues(addArgs(caseId, docs.appeal, { party: 'court' }))).toEqual(['party']);
    expect(errorCode(await record(addArgs(caseId, other.docs.response)))).toBe('not_found');
    expect(errorCode(await record(addArgs(caseId, crypto.randomUUID())))).toBe('not_found');
    expect(errorCode(await record(addArgs(crypto.randomUUID(), docs.appeal)))).toBe('not_found');
    const { document } = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(`ממתין ${crypto.randomUUID()}`),
      title: 'ממתין',
      createdBy: 'test',
    });
    expect(errorCode(await record(addArgs(caseId, document.id)))).toBe('invalid_state');
  });

  it('a deleted case is not_found and nothing is written', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal'] });
    await deleteCase(db, caseId);
    const before = await tableCounts(db);
    expect(errorCode(await record(addArgs(caseId, docs.appeal)))).toBe('not_found');
    expect(
      errorCode(await record({ case_id: caseId, action: 'confirm', claim_id: crypto.randomUUID() })),
    ).toBe('not_found');
    expect(await tableCounts(db)).toEqual(before);
  });
});

forEachStack('claim_record under concurrency', ALL_STACKS, (server) => {
  it('20 identical adds, and 20 identical rejections, at once: one claim, one decision', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal'] });
    const adds = await twentyAtOnce(server(), 'claim_record', addArgs(caseId, docs.appeal));
    const ids = new Set(adds.map((a) => expectOk<Recorded>(a).claim.id));
    expect(ids.size).toBe(1);
    expect(await db.select().from(claims).where(eq(claims.caseId, caseId))).toHaveLength(1);
    const id = [...ids][0] as string;
    const rejections = await twentyAtOnce(server(), 'claim_record', {
      case_id: caseId,
      action: 'reject',
      claim_id: id,
      rationale: 'כפילות',
    });
    for (const r of rejections) expect(expectOk<Recorded>(r).claim.status).toBe('rejected');
    expect(await db.select().from(claimActions).where(eq(claimActions.claimId, id))).toHaveLength(1);
    expect(
      nth(
        adds.map((a) => expectOk<Recorded>(a).claim),
        0,
      ).id,
    ).toBe(id);
  });
});

deniedTo('claim_record', 'researcher', (c) => addArgs(c.caseId, c.docs.appeal));
