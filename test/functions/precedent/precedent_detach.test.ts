// precedent_detach: a precedent leaves its case (the same quote can be pinned again); a repeat replays; an
// unknown, detached or deleted case's precedent is not_found; 20 identical calls at once; a caller without the
// grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { casePrecedents } from '../../../src/db/schema/holdings.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { attach, QUOTE } from './_precedent.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

forEachStack('precedent_detach', DB_STACKS, (server) => {
  const detach = (id: string) => server().call('writer', 'precedent_detach', { precedent_id: id });

  it(
    'detaches: the case no longer lists it, a repeat replays, and the same quote can be pinned again',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const args = { case_id: caseId, section: 'discussion', citation: 'עע"מ 9001/19', quote: QUOTE };
      const { precedent } = await attach(s, args);
      const done = expectOk<{ precedent_id: string; detached_at: string }>(
        await detach(precedent.precedent_id),
      );
      expect(done.precedent_id).toBe(precedent.precedent_id);
      expect(await detach(precedent.precedent_id)).toMatchObject({ ok: true, replayed: true });
      const listed = await s.call('qa', 'precedent_list', { case_id: caseId });
      expect(listed).toMatchObject({ status: 'empty' });
      const again = await attach(s, args);
      expect(again.created).toBe(true);
      expect(again.precedent.precedent_id).not.toBe(precedent.precedent_id);
      const [row] = await s.db.db
        .select()
        .from(casePrecedents)
        .where(eq(casePrecedents.id, precedent.precedent_id));
      expect(row).toMatchObject({ detachedBy: 'writer' });
    },
    SLOW,
  );

  it(
    'an unknown precedent, or one of a deleted case, is not_found and stays as it is',
    async () => {
      const s = server();
      expect(errorCode(await detach(crypto.randomUUID()))).toBe('not_found');
      const caseId = await seedCase(s.db.db);
      const { precedent } = await attach(s, {
        case_id: caseId,
        section: 'outcome',
        citation: 'ע"א 1/20',
        quote: QUOTE,
      });
      await deleteCase(s.db.db, caseId);
      expect(errorCode(await detach(precedent.precedent_id))).toBe('not_found');
      const [row] = await s.db.db
        .select()
        .from(casePrecedents)
        .where(eq(casePrecedents.id, precedent.precedent_id));
      expect(row?.detachedAt).toBeNull();
      expect(errorCode(await s.call('writer', 'precedent_detach', { precedent_id: 'x' }))).toBe(
        'invalid_args',
      );
    },
    SLOW,
  );
});

forEachStack('precedent_detach under concurrency', ALL_STACKS, (server) => {
  it(
    '20 identical calls at once: detached once',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const { precedent } = await attach(s, {
        case_id: caseId,
        section: 'claims',
        citation: 'ע"א 2/20',
        quote: QUOTE,
      });
      const answers = await twentyAtOnce(s, 'precedent_detach', { precedent_id: precedent.precedent_id }, [
        'writer',
      ]);
      for (const a of answers) expectOk(a);
      expect(answers.filter((a) => a.ok && a.replayed !== true)).toHaveLength(1);
    },
    SLOW,
  );
});

deniedTo('precedent_detach', 'qa', () => ({ precedent_id: crypto.randomUUID() }));
