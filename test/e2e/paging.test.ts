// C6 through the official client on both eras: limits are clamped (not refused) and reported, cursors
// page through everything once in a stable order, and a foreign cursor is invalid_args.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.ts';
import { encodeCursor } from '../../src/contract/limits.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';

type Page = { items: { id: string; case_number: string }[]; limit: number; next_cursor: string | null };

const envelopeOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  result.structuredContent as unknown as Envelope;

describe('C6 caps and paging', () => {
  let s: TestServer;
  const created: string[] = [];
  beforeAll(async () => {
    s = await startTestServer();
    // Seven cases in a known creation order (the list is oldest first).
    for (let i = 1; i <= 7; i++) {
      const env = await s.call('ceo', 'case_create', { case_number: `PAGE-${i}`, title: `דף ${i}` });
      created.push(expectOk<{ case: { id: string } }>(env).case.id);
    }
    // Past the 200 cap, so clamping to 200 shows in the page size; plain rows are enough for that.
    await s.db.db.insert(cases).values(
      Array.from({ length: 201 }, (_, i) => ({
        id: crypto.randomUUID(),
        caseNumber: `BULK-${i}`,
        title: 'רבים',
        createdBy: 'ceo',
      })),
    );
  });
  afterAll(async () => s?.close());

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    let client: Client;
    beforeAll(async () => {
      client = await s.connect('researcher', { era });
    });
    const list = async (args: Record<string, unknown>) =>
      envelopeOf(await client.callTool({ name: 'case_list', arguments: args }));

    it('pages through every match exactly once, oldest first, with next_cursor null at the end', async () => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 10; guard++) {
        const page = expectOk<Page>(await list({ text: 'PAGE-', limit: 3, ...(cursor ? { cursor } : {}) }));
        expect(page.limit).toBe(3);
        sizes.push(page.items.length);
        seen.push(...page.items.map((c) => c.id));
        if (page.next_cursor === null) break;
        cursor = page.next_cursor;
      }
      expect(sizes).toEqual([3, 3, 1]);
      expect(seen).toEqual(created);
    });

    it('the order is stable: the same pages come back on a second pass', async () => {
      const first = expectOk<Page>(await list({ text: 'PAGE-', limit: 4 }));
      const again = expectOk<Page>(await list({ text: 'PAGE-', limit: 4 }));
      expect(again).toEqual(first);
      const next = expectOk<Page>(await list({ text: 'PAGE-', limit: 4, cursor: first.next_cursor }));
      expect(next.items.map((c) => c.case_number)).toEqual(['PAGE-5', 'PAGE-6', 'PAGE-7']);
      expect(next.next_cursor).toBeNull();
    });

    it.each([
      [0, 1],
      [-5, 1],
      [1, 1],
      [200, 200],
      [201, 200],
      [100000, 200],
    ])('limit %d is clamped to %d and the response says so', async (limit, applied) => {
      const page = expectOk<Page>(await list({ limit }));
      expect(page.limit).toBe(applied);
      expect(page.items).toHaveLength(applied);
      expect(page.next_cursor).not.toBeNull();
    });

    it('no limit means the default of 20', async () => {
      const page = expectOk<Page>(await list({}));
      expect(page.limit).toBe(20);
      expect(page.items).toHaveLength(20);
    });

    it('a cursor that this tool did not issue is invalid_args, not a silent restart', async () => {
      for (const cursor of [
        'garbage!',
        encodeCursor('document_list', {}, ['2025-01-01T00:00:00.000Z', 'x']),
        'e30',
      ]) {
        const env = await list({ cursor });
        expect(errorCode(env)).toBe('invalid_args');
        expect(JSON.stringify(env)).toContain('cursor');
      }
    });
  });
});
